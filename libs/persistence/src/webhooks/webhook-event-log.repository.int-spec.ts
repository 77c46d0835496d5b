import type { DataSource } from 'typeorm';
import { webhookEventId, type WebhookEventData } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { WebhookEventLogRepository } from './webhook-event-log.repository';
import { WebhookEventsRepository, type NewWebhookEvent } from './webhook-events.repository';

let live: TestDatabase;
let replay: TestDatabase;
let liveDs: DataSource;
let replayDs: DataSource;

beforeAll(async () => {
  [live, replay] = await Promise.all([createTestDatabase('wh_log_live'), createTestDatabase('wh_log_replay')]);
  liveDs = createDataSource({ url: live.url });
  replayDs = createDataSource({ url: replay.url });
  await Promise.all([liveDs.initialize(), replayDs.initialize()]);
}, 60_000);

afterAll(async () => {
  await liveDs?.destroy();
  await replayDs?.destroy();
  await live?.drop();
  await replay?.drop();
});

const event = (accession: string): NewWebhookEvent => ({
  id: webhookEventId('filing.created', accession),
  type: 'filing.created',
  entityKey: accession,
  data: { accession, size: 1.5, items: [] },
  sourceTopic: 'edgar.filings.v1',
  sourceRecordId: `rec_${accession}`,
  sourceProducedAt: new Date('2026-11-24T10:00:00.123Z'),
});

const pending = async (ds: DataSource): Promise<string[]> => (await ds.query<Array<{ seq: string }>>(`SELECT seq::text AS seq FROM webhook_event_log_pending ORDER BY seq`)).map((r) => r.seq);
const rowsOf = (ds: DataSource): Promise<unknown[]> => ds.query(`SELECT * FROM webhook_events ORDER BY seq`);

describe('the webhook event log', () => {
  it('insertEvents puts the new events in the outbox (not the ids already there); the relay takes them in seq order and empties it, or leaves them when publishing fails', async () => {
    await liveDs.transaction((m) => new WebhookEventsRepository(m).insertEvents([event('0000000001-26-000001'), event('0000000001-26-000002')]));
    await new WebhookEventsRepository(liveDs).insertEvents([event('0000000001-26-000002'), event('0000000001-26-000003')]);
    const seqs = (await liveDs.query<Array<{ seq: string }>>(`SELECT seq::text AS seq FROM webhook_events ORDER BY seq`)).map((r) => r.seq);
    expect(seqs).toHaveLength(3);
    expect(await pending(liveDs)).toEqual(seqs);

    await expect(WebhookEventLogRepository.relayPending(liveDs, 10, () => Promise.reject(new Error('broker down')))).rejects.toThrow('broker down');
    expect(await pending(liveDs)).toEqual(seqs);

    const published: WebhookEventData[][] = [];
    const publish = (events: WebhookEventData[]): Promise<void> => {
      published.push(events);
      return Promise.resolve();
    };
    expect(await WebhookEventLogRepository.relayPending(liveDs, 2, publish)).toBe(2);
    expect(await WebhookEventLogRepository.relayPending(liveDs, 2, publish)).toBe(1);
    expect(await WebhookEventLogRepository.relayPending(liveDs, 2, publish)).toBe(0);
    expect(published.flat().map((e) => e.seq)).toEqual(seqs);
    expect(await pending(liveDs)).toEqual([]);
    // Times with their microseconds: a Date would lose them, and a replay would not be verbatim.
    const [micros] = await liveDs.query<Array<{ created_at: string }>>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at FROM webhook_events WHERE seq = $1`,
      [seqs[0]],
    );
    expect(published[0]![0]).toMatchObject({ id: event('0000000001-26-000001').id, created_at: micros!.created_at, source_produced_at: '2026-11-24T10:00:00.123000Z', data: { accession: '0000000001-26-000001', size: 1.5, items: [] } });

    // The replay's end: verbatim, no delivery, no outbox row; the same events again change nothing.
    const logged = published.flat();
    // The newest first (another partition's batch), then all of them: the older ones go in, the newest is not inserted twice.
    expect(await replayDs.transaction((m) => new WebhookEventLogRepository(m).insertLogged([logged[2]!]))).toBe(1);
    expect(await replayDs.transaction((m) => new WebhookEventLogRepository(m).insertLogged(logged))).toBe(2);
    expect(await replayDs.transaction((m) => new WebhookEventLogRepository(m).insertLogged(logged))).toBe(0);
    expect(await rowsOf(replayDs)).toEqual(await rowsOf(liveDs));
    expect(await pending(replayDs)).toEqual([]);
    expect(await replayDs.query(`SELECT * FROM webhook_deliveries`)).toEqual([]);
    // The sequence is past the logged seqs (the batch of lower seqs after the newest did not move it back).
    const [sequence] = await replayDs.query<Array<{ next: string }>>(`SELECT nextval('webhook_events_seq_seq')::text AS next`);
    expect(BigInt(sequence!.next)).toBeGreaterThan(BigInt(seqs[2]!));
  });
});
