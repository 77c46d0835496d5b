// A digest of every read model and of the webhook events, to compare two databases table by
// table: the row count and an md5 over the rows' JSON, sorted, so it depends on the rows only.
// What legitimately differs between two projections of the same records is left out: the time a
// row was written (created_at, updated_at) and serial ids, which follow arrival order (a document
// or an IR event is named by its natural key instead). Webhook events are compared by what exists.
import type { Client } from 'pg';

/** Each table's rows as JSON without what differs between two projections of the same records. */
const ROWS: Record<string, string> = {
  companies: `SELECT to_jsonb(t) - 'updated_at' AS r FROM companies t`,
  company_descriptions: `SELECT to_jsonb(t) - 'updated_at' AS r FROM company_descriptions t`,
  filings: `SELECT to_jsonb(t) - 'updated_at' AS r FROM filings t`,
  segment_observations: `SELECT to_jsonb(t) - 'updated_at' AS r FROM segment_observations t`,
  xbrl_fact_reports: `SELECT to_jsonb(t) AS r FROM xbrl_fact_reports t`,
  xbrl_concepts: `SELECT to_jsonb(t) - 'updated_at' AS r FROM xbrl_concepts t`,
  funds: `SELECT to_jsonb(t) - 'updated_at' AS r FROM funds t`,
  fund_holdings: `SELECT to_jsonb(t) - 'updated_at' AS r FROM fund_holdings t`,
  form4_filings: `SELECT to_jsonb(t) - 'updated_at' AS r FROM form4_filings t`,
  form4_filing_owners: `SELECT to_jsonb(t) AS r FROM form4_filing_owners t`,
  insider_transactions: `SELECT to_jsonb(t) - 'updated_at' AS r FROM insider_transactions t`,
  roster_entries: `SELECT to_jsonb(t) - 'id' - 'updated_at' AS r FROM roster_entries t`,
  ir_events: `SELECT to_jsonb(t) - 'id' - 'updated_at' AS r FROM ir_events t`,
  documents: `SELECT to_jsonb(t) - 'id' - 'updated_at' - 'event_id' || jsonb_build_object('event_key', e.event_key) AS r
    FROM documents t LEFT JOIN ir_events e ON e.id = t.event_id`,
  document_pages: `SELECT to_jsonb(t) - 'document_id' || jsonb_build_object('url', d.url) AS r FROM document_pages t JOIN documents d ON d.id = t.document_id`,
  // Which events exist. Their data is the resource as it stood when the event was made: a filing
  // first seen in a daily index, then in its submissions file, is announced with the fields of the
  // index when the two records arrive in separate batches, and with the full ones when a replay
  // reads both in one batch. The source record differs the same way.
  webhook_events: `SELECT jsonb_build_object('id', t.id, 'type', t.type, 'entity_key', t.entity_key, 'source_topic', t.source_topic, 'is_test', t.is_test) AS r FROM webhook_events t`,
};

export type ReadModelDigest = Record<string, { rows: number; md5: string | null }>;

export async function readModelDigest(pg: Client): Promise<ReadModelDigest> {
  const digest: ReadModelDigest = {};
  for (const [table, rows] of Object.entries(ROWS)) {
    const { rows: [d] } = await pg.query<{ rows: number; md5: string | null }>(
      `SELECT count(*)::int AS rows, md5(string_agg(x.r::text, '|' ORDER BY x.r::text)) AS md5 FROM (${rows}) x`,
    );
    digest[table] = d!;
  }
  return digest;
}
