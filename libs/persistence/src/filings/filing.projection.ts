import type { EntityManager } from 'typeorm';
import { contentHash, stableStringify, type FilingData, type RecordEnvelope } from '@app/contracts';
import type { BatchOutcome } from '../projections/batch-outcome';
import { pgQueryable } from '../repositories/pg-queryable';
import { upsertColumns } from '../table';
import { FILINGS_TABLE } from './filings.table';
import { batchOutcome, columnArrays, survivingRows, unnestUpsertSql } from '../projections/batch-upsert';
import { filingSightings, recordFilingSightings } from '../freshness/filing-freshness.projection';

/** The row a filing@1 record projects to; pure, so it is tested without a database. */
export function filingRow(envelope: RecordEnvelope<FilingData>) {
  const d = envelope.data;
  return {
    accession: d.accession,
    cik: d.cik,
    company_name: d.company_name,
    form: d.form,
    filed_date: d.filed_date,
    accepted_at: d.accepted_at,
    report_period: d.report_period,
    primary_document_url: d.primary_document_url,
    primary_doc_description: d.primary_doc_description,
    items: d.items,
    legacy_items: d.legacy_items?.length ? d.legacy_items : null,
    size: d.size === null ? null : String(d.size),
    is_xbrl: d.is_xbrl,
    is_inline_xbrl: d.is_inline_xbrl,
    is_amendment: d.is_amendment,
    amends_accession: d.amends_accession,
    act: d.act,
    file_number: d.file_number,
    film_number: d.film_number,
    source: d.source,
    provenance: envelope.provenance,
    record_id: envelope.id,
    data_hash: contentHash(stableStringify(d)),
    observed_at: envelope.observed_at,
    first_seen_at: envelope.observed_at,
  };
}

/**
 * Richer sources first: the submissions JSON has every field; the complete submission text (read by
 * the 8-K worker) the items, acceptance time and period; the listings only a few, the latest-filings
 * feed with the acceptance time. Ranks are computed when compared, never stored.
 */
const SOURCE_RANKS: Readonly<Record<FilingData['source'], number>> = { submissions: 5, submission_text: 4, latest_filings: 3, current_events: 2, daily_index: 1 };

export function sourceRank(source: string): number {
  return SOURCE_RANKS[source as FilingData['source']] ?? 1;
}

/** The same ranking in SQL, from the one table. */
const RANK = (col: string) =>
  `(CASE ${col} ${Object.entries(SOURCE_RANKS).map(([source, rank]) => `WHEN '${source}' THEN ${rank}`).join(' ')} ELSE 1 END)`;

export const FILING_COLUMNS = upsertColumns(FILINGS_TABLE);

/*
 * Insert, or update only when the data hash changed, the record is not older than the row, and its
 * source is not poorer (a daily-index row seen after the submissions JSON never blanks the
 * acceptance time or the primary document). A known acceptance time is never blanked by a source
 * of the same rank either (a current-events row without one after the latest-filings feed's): it is
 * a fact of EDGAR, the same in every source that states it. first_seen_at only moves earlier.
 */
const UPSERT_SQL = unnestUpsertSql(
  'filings',
  FILING_COLUMNS,
  'accession',
  `filings.data_hash IS DISTINCT FROM EXCLUDED.data_hash
    AND filings.observed_at <= EXCLUDED.observed_at
    AND ${RANK('filings.source')} <= ${RANK('EXCLUDED.source')}`,
  'accession AS key, (xmax = 0) AS inserted',
  { set: { accepted_at: 'COALESCE(EXCLUDED.accepted_at, filings.accepted_at)', first_seen_at: 'LEAST(filings.first_seen_at, EXCLUDED.first_seen_at)' } },
);

const VERSIONS_SQL = `
  SELECT accession AS key, data_hash AS hash, observed_at, ${RANK('source')} AS rank
    FROM filings WHERE accession = ANY($1::text[])`;

/**
 * The batch's surviving rows, each with an acceptance time when any record of its accession in the
 * batch gave one (the latest known one wins), and the earliest sighting of any of them: the batch
 * counterpart of the upsert's COALESCE and LEAST.
 */
function withBatchFacts<R extends { accession: string; accepted_at: string | null; first_seen_at: string }>(survivors: ReadonlyArray<R>, all: ReadonlyArray<R>): ReadonlyArray<R> {
  // Every accession once (a replay's usual batch): each survivor is the only record of its accession.
  if (survivors.length === all.length) return survivors;
  const known = new Map<string, string>();
  const earliest = new Map<string, string>();
  for (const r of all) {
    if (r.accepted_at !== null) known.set(r.accession, r.accepted_at);
    const seen = earliest.get(r.accession);
    if (seen === undefined || Date.parse(r.first_seen_at) < Date.parse(seen)) earliest.set(r.accession, r.first_seen_at);
  }
  return survivors.map((r) => ({ ...r, accepted_at: r.accepted_at ?? known.get(r.accession) ?? null, first_seen_at: earliest.get(r.accession)! }));
}

/**
 * Projects a batch of filing@1 records (one topic-partition, offset order) in the caller's
 * transaction with one upsert: same record twice -> one row, unchanged hash -> no write, an older
 * record or a poorer source never overwrites the row, a known acceptance time is never blanked; per
 * accession the batch ends as applying it one record at a time would. Keys are accessions; only
 * the keys come back: the few rows live records announce are read again by the webhook events
 * writer, rather than every replayed row returned with its issuer symbol. Records of live
 * discovery also record when the filing was first seen, published (`producedAt[i]`: the Kafka
 * timestamp of `envelopes[i]`, when known) and served, in filing_freshness; the filings served for
 * the first time come back.
 */
export async function projectFilings(
  m: EntityManager,
  envelopes: ReadonlyArray<RecordEnvelope<FilingData>>,
  producedAt: ReadonlyArray<Date | null> = [],
): Promise<BatchOutcome> {
  const all = envelopes.map(filingRow);
  const { survivors, rows } = await survivingRows(
    m,
    all,
    (r) => ({ key: r.accession, hash: r.data_hash, observedAt: Date.parse(r.observed_at), rank: sourceRank(r.source) }),
    VERSIONS_SQL,
  );
  const upserted = withBatchFacts(rows, all);
  // Named: prepared once per connection, not parsed and planned again for every batch.
  const written = upserted.length > 0
    ? (await pgQueryable(m).query<{ key: string; inserted: boolean }>({ name: 'filings_upsert', text: UPSERT_SQL, values: columnArrays(upserted, FILING_COLUMNS) })).rows
    : [];
  // Only a filing this batch made is news: one already served (backfilled, or found before without an acceptance time) is not timed again.
  const inserted = new Set(written.filter((w) => w.inserted).map((w) => w.key));
  const firstServed = await recordFilingSightings(m, filingSightings(envelopes, producedAt).filter((s) => inserted.has(s.accession)));
  return { ...batchOutcome(envelopes, survivors, rows.map((r) => r.accession), written), firstServed };
}
