import type { FirstServedFiling } from '../freshness/filing-freshness.projection';

/**
 * What one batch of records did to a read model. `inserted` and `updated` list the envelope keys
 * of the records whose rows were created or changed (in offset order, each key once: the last
 * record of a key decides); `unchanged` counts the records that wrote nothing (same content hash,
 * older than the row, a poorer source, or superseded by a later record of the same key in the batch).
 * inserted.length + updated.length + unchanged === the number of records given. IR links
 * (ir-document@1) count as inserted when the link is new to its document, also on a row its text
 * or its filing had made: ir_document.created announces the first link.
 */
export interface BatchOutcome {
  inserted: string[];
  updated: string[];
  unchanged: number;
  /** The filings projection also returns the filings live discovery found that it served for the first time (freshness). */
  firstServed?: ReadonlyArray<FirstServedFiling>;
}

/**
 * The outcome of a batch reduced to one record per key and upserted with `RETURNING <key>,
 * (xmax = 0) AS inserted`: `winners` are the reduced records, `written` what the upsert returned by
 * key, `records` how many the batch held.
 */
export function upsertOutcome(winners: ReadonlyArray<{ key: string; winner: { key: string } }>, written: ReadonlyMap<string, boolean>, records: number): BatchOutcome {
  const done = winners.filter((w) => written.has(w.key));
  return {
    inserted: done.filter((w) => written.get(w.key)).map((w) => w.winner.key),
    updated: done.filter((w) => !written.get(w.key)).map((w) => w.winner.key),
    unchanged: records - done.length,
  };
}
