import type { FilingRecord } from '../filings/filings.table';

/**
 * What one batch of records did to a read model. `inserted` and `updated` list the envelope keys
 * of the records whose rows were created or changed (in offset order, each key once: the last
 * record of a key decides); `unchanged` counts the records that wrote nothing (same content hash,
 * older than the row, a poorer source, or superseded by a later record of the same key in the batch).
 * inserted.length + updated.length + unchanged === the number of records given.
 */
export interface BatchOutcome {
  inserted: string[];
  updated: string[];
  unchanged: number;
  /**
   * The filings projection returns the rows it wrote (inserted or updated), as the read side reads
   * them, by accession: the projector makes their webhook events from them without reading them again.
   */
  filings?: ReadonlyMap<string, FilingRecord>;
}
