import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { webhookEventId, webhookEventsOf, WEBHOOK_EVENT_SOURCES } from './webhook-events';

const example = (file: string) => JSON.parse(readFileSync(join(__dirname, 'examples', file), 'utf8')) as { schema: string; key: string; id: string; data: unknown };

describe('webhook event sources', () => {
  it('name a registered topic that carries the schema making each event', () => {
    for (const source of WEBHOOK_EVENT_SOURCES) expect(Object.keys(source.topic.schemas)).toContain(source.schema);
    expect(WEBHOOK_EVENT_SOURCES.map((s) => s.type).sort()).toEqual(['13f.filed', 'filing.created', 'form4.filed', 'ir_document.created', 'ir_document.created', 'transcript.published']);
  });

  it('give an IR document one event id from its URL, whatever else the record says', () => {
    const doc = example('ir-document@1.frph-presentation.json');
    const [event, ...more] = webhookEventsOf(doc);
    expect(more).toEqual([]);
    expect(event).toEqual({ type: 'ir_document.created', id: webhookEventId('ir_document.created', doc.key), onlyWhenNew: true });
    expect(event!.id).toMatch(/^evt_[0-9a-f]{32}$/);
    // Re-ingested with another title (another record id): still the same event.
    expect(webhookEventsOf(doc)[0]!.id).toBe(event!.id);
    expect(webhookEventsOf({ ...doc, key: `${doc.key}?v=2` })[0]!.id).not.toBe(event!.id);
  });

  it('make filing.created and form4.filed from their records, nothing from other records', () => {
    const filing = example('filing@1.msft-10-k.json');
    const form4 = example('form4@1.msft.json');
    expect(webhookEventsOf(filing).map((e) => e.type)).toEqual(['filing.created']);
    expect(webhookEventsOf(form4).map((e) => e.type)).toEqual(['form4.filed']);
    // A 13F chunk names its filing: every chunk of one accession makes the one event id.
    const thirteenF = example('13f-holdings@1.actiam-2020q4.json');
    expect(webhookEventsOf(thirteenF)).toEqual([{ type: '13f.filed', id: webhookEventId('13f.filed', thirteenF.key), onlyWhenNew: false }]);
    // The same accession makes different events of different types.
    expect(webhookEventId('filing.created', form4.key)).not.toBe(webhookEventsOf(form4)[0]!.id);
    expect(webhookEventsOf({ schema: 'company@1', key: 'MSFT:US', data: {} })).toEqual([]);
    expect(webhookEventsOf({ schema: 'segment@1', key: 'x', data: {} })).toEqual([]);
  });

  it('make transcript.published from a document text, and ir_document.created from a filing exhibit\'s', () => {
    const transcript = example('document-text@1.citi-4q2024-transcript.json') as { schema: string; key: string; id: string; data: Record<string, unknown> };
    // An IR document was announced by its link: its text makes no ir_document.created.
    expect(webhookEventsOf(transcript)).toEqual([{ type: 'transcript.published', id: webhookEventId('transcript.published', transcript.key), onlyWhenNew: false }]);
    const exhibit = { ...transcript, data: { ...transcript.data, filing: { accession: '0000831001-25-000001' } } };
    expect(webhookEventsOf(exhibit).map((e) => e.type)).toEqual(['transcript.published', 'ir_document.created']);
  });
});
