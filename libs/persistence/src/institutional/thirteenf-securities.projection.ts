import type { EntityManager } from 'typeorm';
import type { RecordEnvelope, ThirteenFSecuritiesData } from '@app/contracts';
import type { BatchOutcome } from '../projections/batch-outcome';
import { columnArrays, unnestUpsertSql } from '../projections/batch-upsert';
import { upsertColumns } from '../table';
import { THIRTEENF_SECURITIES_TABLE } from './institutional.table';

const COLUMNS = upsertColumns(THIRTEENF_SECURITIES_TABLE);

/* A row changes only when the list says something else of it: a redelivered chunk writes nothing. */
const UPSERT_SQL = unnestUpsertSql(
  'thirteenf_securities',
  COLUMNS,
  'quarter, cusip',
  '(thirteenf_securities.has_options, thirteenf_securities.issuer, thirteenf_securities.description, thirteenf_securities.status) IS DISTINCT FROM (EXCLUDED.has_options, EXCLUDED.issuer, EXCLUDED.description, EXCLUDED.status)',
  `quarter || '|' || cusip AS key, (xmax = 0) AS inserted`,
  { updatedAt: false },
);

/** What the column holds (text, joined with the other cusip columns): nine upper-case letters or digits, as the record schema says. */
const CUSIP = /^[A-Z0-9]{9}$/;

/**
 * The thirteenf_securities rows of a batch: per (quarter, CUSIP) the last record's, sorted by key
 * (the upsert's lock order). A CUSIP that is not nine characters fails the batch, as the record
 * schema would have. Pure.
 */
export function thirteenFSecurityRows(envelopes: ReadonlyArray<RecordEnvelope<ThirteenFSecuritiesData>>) {
  const rows = new Map<string, { quarter: string; cusip: string; has_options: boolean; issuer: string; description: string | null; status: string | null; envelope: number }>();
  envelopes.forEach((e, envelope) => {
    for (const s of e.data.securities) {
      if (!CUSIP.test(s.cusip)) throw new Error(`13f-securities record ${e.id}: CUSIP ${JSON.stringify(s.cusip)} is not nine characters`);
      rows.set(`${e.data.quarter}|${s.cusip}`, { quarter: e.data.quarter, ...s, envelope });
    }
  });
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

/**
 * Projects a batch of 13f-securities@1 records (chunks of SEC's Official List of Section 13(f)
 * Securities) into thirteenf_securities in the caller's transaction. A record counts as inserted
 * when it added a security, updated when it only changed some, else unchanged.
 */
export async function projectThirteenFSecurities(m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope<ThirteenFSecuritiesData>>): Promise<BatchOutcome> {
  const rows = thirteenFSecurityRows(envelopes);
  const written = rows.length ? await m.query<Array<{ key: string; inserted: boolean }>>(UPSERT_SQL, columnArrays(rows, COLUMNS)) : [];
  const byRow = new Map(rows.map((r) => [`${r.quarter}|${r.cusip}`, r.envelope]));
  const outcome = new Map<number, boolean>();
  for (const w of written) {
    const i = byRow.get(w.key)!;
    outcome.set(i, (outcome.get(i) ?? false) || w.inserted);
  }
  const inserted: string[] = [];
  const updated: string[] = [];
  envelopes.forEach((e, i) => {
    const o = outcome.get(i);
    if (o === true) inserted.push(e.key);
    else if (o === false) updated.push(e.key);
  });
  return { inserted, updated, unchanged: envelopes.length - inserted.length - updated.length };
}
