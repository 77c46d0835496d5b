import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { webhookEventId, webhookEventOf, WEBHOOK_EVENT_SOURCES } from './webhook-events';

const example = (file: string) => JSON.parse(readFileSync(join(__dirname, 'examples', file), 'utf8')) as { schema: string; key: string; id: string; data: unknown };

describe('webhook event sources', () => {
  it('name a registered topic that carries the schema making each event', () => {
    for (const source of WEBHOOK_EVENT_SOURCES) expect(Object.keys(source.topic.schemas)).toContain(source.schema);
    expect(WEBHOOK_EVENT_SOURCES.map((s) => s.type).sort()).toEqual(['filing.created', 'form4.filed', 'ir_document.created', 'transcript.published']);
  });

  it('give an IR document one event id from its URL, whatever else the record says', () => {
    const doc = example('ir-document@1.frph-presentation.json');
    const event = webhookEventOf(doc.schema, doc.key);
    expect(event).toEqual({ type: 'ir_document.created', id: webhookEventId('ir_document.created', doc.key) });
    expect(event!.id).toMatch(/^evt_[0-9a-f]{32}$/);
    // Re-ingested with another title (another record id): still the same event.
    expect(webhookEventOf(doc.schema, doc.key)!.id).toBe(event!.id);
    expect(webhookEventOf(doc.schema, `${doc.key}?v=2`)!.id).not.toBe(event!.id);
  });

  it('make filing.created and form4.filed from their records, nothing from other records', () => {
    const filing = example('filing@1.msft-10-k.json');
    const form4 = example('form4@1.msft.json');
    expect(webhookEventOf(filing.schema, filing.key)!.type).toBe('filing.created');
    expect(webhookEventOf(form4.schema, form4.key)!.type).toBe('form4.filed');
    // The same accession makes different events of different types.
    expect(webhookEventId('filing.created', form4.key)).not.toBe(webhookEventOf(form4.schema, form4.key)!.id);
    expect(webhookEventOf('company@1', 'MSFT:US')).toBeNull();
    expect(webhookEventOf('segment@1', 'x')).toBeNull();
  });

  it('make transcript.published from a document text, one per document URL', () => {
    const transcript = example('document-text@1.citi-4q2024-transcript.json');
    expect(webhookEventOf(transcript.schema, transcript.key)).toEqual({ type: 'transcript.published', id: webhookEventId('transcript.published', transcript.key) });
    // Not the IR document's event of the same URL.
    expect(webhookEventOf(transcript.schema, transcript.key)!.id).not.toBe(webhookEventId('ir_document.created', transcript.key));
  });
});
