import { TOPICS } from './topics';
import { validateRecord } from './validate';
import { webhookEventId } from './webhook-events';
import { webhookEventRecord, type WebhookEventData } from './webhook-event.schema';

const event: WebhookEventData = {
  id: webhookEventId('form4.filed', '0001062993-24-016587'),
  seq: '42',
  type: 'form4.filed',
  entity_key: '0001062993-24-016587',
  data: { accession: '0001062993-24-016587', rows: [{ shares: 1.5 }] },
  source_topic: 'edgar.form4.v1',
  source_record_id: 'rec_0123456789abcdef0123456789abcdef',
  source_produced_at: '2026-11-24T10:00:00.123000Z',
  created_at: '2026-11-24T10:00:01.654321Z',
};

describe('webhook-event@1', () => {
  it('the log record of an event is valid on the event log, keyed by the event, with platform provenance', () => {
    const record = webhookEventRecord(event);
    const result = validateRecord(TOPICS.webhookEvents, record);
    expect(result.ok ? 'ok' : result.error).toBe('ok');
    expect(record).toMatchObject({ key: event.id, observed_at: event.created_at, correlation_id: event.source_record_id, provenance: { source_provider: 'platform', extracted_at: event.created_at }, data: event });
  });

  it('the same event always makes the same record id; another event another', () => {
    expect(webhookEventRecord({ ...event }).id).toBe(webhookEventRecord(event).id);
    expect(webhookEventRecord({ ...event, seq: '43' }).id).not.toBe(webhookEventRecord(event).id);
  });

  it('refuses an event without its seq or with a bad time', () => {
    expect(validateRecord(TOPICS.webhookEvents, webhookEventRecord({ ...event, seq: '' })).ok).toBe(false);
    expect(validateRecord(TOPICS.webhookEvents, { ...webhookEventRecord(event), data: { ...event, created_at: 'yesterday' } }).ok).toBe(false);
  });
});
