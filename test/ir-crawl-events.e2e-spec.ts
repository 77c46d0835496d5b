// An IR site's first crawl is history, its later crawls are news, on real infrastructure: FRPH's
// saved IR pages served locally -> ingest-ir (IR_STATE_FILE: no state, then the first crawl's) ->
// Kafka -> projector -> documents and webhook_events in Postgres. The first crawl's documents are
// served but announce nothing; the second crawl, whose landing page lists one more document,
// announces that one only, not the documents it finds again.
import 'reflect-metadata';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { namespacedTopic, TOPICS, webhookEventId } from '@app/contracts';
import { createLogger } from '@app/observability';
import { defaultFixturesDir } from '@app/testing';
import { loadIngestIrConfig } from '../apps/ingest-ir/src/ingest-ir.config';
import { IngestIrModule } from '../apps/ingest-ir/src/ingest-ir.module';
import { IngestIrService, type IrIngestSummary } from '../apps/ingest-ir/src/ingest-ir.service';
import { startFollowPipeline, type FollowPipeline } from './support/follow-pipeline';

jest.setTimeout(180_000);

const UA = 'FilingsPlatformBot/1.0 (+ops@filings.example)';
const LANDING_PATH = '/investor-relations.html';
/** A real fixture PDF the saved landing page does not link (FIXTURE_ROUTES serves it at this path). */
const NEW_DOCUMENT_PATH = '/assets/FRP_2019_Annual_Report.pdf';
const IR_TOPICS = [TOPICS.issuerDocuments, TOPICS.issuerRoster, TOPICS.companyDescriptions, TOPICS.irSites];

let pipeline: FollowPipeline;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ir-crawl-events-'));
  pipeline = await startFollowPipeline('ir-crawl-events');
}, 600_000);

afterAll(async () => {
  await pipeline?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One `npm run ingest-ir` of FRPH (its landing page alone, the other pages found from it), sharing the state file across runs. */
async function crawl(runId: string): Promise<IrIngestSummary> {
  const site = { cik: '844059', ticker: 'FRPH', name: 'FRP Holdings, Inc.', landing_url: `${pipeline.server.url}${LANDING_PATH}` };
  const config = loadIngestIrConfig(
    {
      IR_USER_AGENT: UA,
      IR_SITES: JSON.stringify([site]),
      IR_STATE_FILE: join(dir, 'ir-state.json'),
      IR_MAX_RPS_PER_HOST: '10',
      IR_ALLOW_PRIVATE_HOSTS: 'true',
      KAFKA_BROKERS: pipeline.settings.brokers.join(','),
      KAFKA_TOPIC_NAMESPACE: pipeline.namespace,
      LOG_LEVEL: 'silent',
    },
    () => '',
  );
  const app = await NestFactory.createApplicationContext(IngestIrModule.forRoot({ config, logger: createLogger({ level: 'silent' }) }), { logger: false });
  try {
    const summary = await app.get(IngestIrService).execute({ runId });
    await pipeline.projected(IR_TOPICS);
    return summary;
  } finally {
    await app.close();
  }
}

const documentUrls = async (): Promise<string[]> =>
  (await pipeline.ds.query<Array<{ url: string }>>(`SELECT url FROM documents WHERE cik = '0000844059'`)).map((r) => r.url).sort();
const webhookEvents = (): Promise<Array<{ id: string; type: string; entity_key: string; source_topic: string; data: { url: string } }>> =>
  pipeline.ds.query(`SELECT id, type, entity_key, source_topic, data FROM webhook_events ORDER BY seq`);

describe('IR crawls -> projector -> webhook events', () => {
  it("announces no document of a site's first crawl, then only the document a later crawl finds new", async () => {
    expect(existsSync(join(dir, 'ir-state.json'))).toBe(false);
    const first = await crawl('run_int_ir_first_crawl');
    expect(first.sites).toEqual([expect.objectContaining({ cik: '0000844059', status: 'published', documents: 16 })]);
    const history = await documentUrls();
    expect(history).toHaveLength(16);
    expect(history).not.toContain(`${pipeline.server.url}${NEW_DOCUMENT_PATH}`);
    expect(await webhookEvents()).toEqual([]);
    // The crawl state now knows the site: its next crawl is live.
    expect(existsSync(join(dir, 'ir-state.json'))).toBe(true);

    // The site lists one new document. No later saved copy of FRPH's landing page exists among the
    // fixtures, so the second page is the real one with one link added at the top of its list of
    // presentations and releases, to a real fixture PDF the page does not link yet.
    const real = readFileSync(join(defaultFixturesDir(), 'ir-pages/FRPH-investor-relations.html'), 'utf8');
    const listTop = '<p><span style="text-decoration: underline; color: #0f0f0f; font-size: 16px;"><strong>0<a style="color: #0f0f0f; text-decoration: underline;" href="assets/FRP_Investor_Presentation.pdf"';
    expect(real.split(listTop)).toHaveLength(2);
    const newLink = `<p><a href="${NEW_DOCUMENT_PATH.slice(1)}" target="_blank">FRP Holdings 2019 Annual Report</a></p> `;
    const changed = join(dir, 'investor-relations.html');
    writeFileSync(changed, real.replace(listTop, `${newLink}${listTop}`));
    pipeline.server.serve({ path: LANDING_PATH, file: changed });

    const second = await crawl('run_int_ir_second_crawl');
    // Every document is published again (the landing page changed), the new one among them.
    expect(second.sites).toEqual([expect.objectContaining({ cik: '0000844059', status: 'published', documents: 17 })]);
    const newUrl = `${pipeline.server.url}${NEW_DOCUMENT_PATH}`;
    expect(await documentUrls()).toEqual([...history, newUrl].sort());
    const events = await webhookEvents();
    expect(events.map((e) => [e.id, e.type, e.entity_key, e.source_topic])).toEqual([
      [webhookEventId('ir_document.created', newUrl), 'ir_document.created', newUrl, namespacedTopic(TOPICS.issuerDocuments, pipeline.namespace).name],
    ]);
    expect(events[0]!.data).toMatchObject({ url: newUrl, title: 'FRP Holdings 2019 Annual Report' });
  });
});
