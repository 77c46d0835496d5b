import type { EntityManager } from 'typeorm';
import type { RecordEnvelope } from '@app/contracts';
import type { BatchOutcome } from './batch-outcome';

/** The version of a read-model row a record is compared with: the id and observed_at of the record last applied to it. */
export interface StoredVersion {
  record_id: string;
  observed_at: Date | string;
}

/** The record of one key a batch leaves standing, and the records of that key applied on the way to it. */
export interface KeyWinner<E> {
  key: string;
  winner: E;
  /** The records of the key that sequential application writes, in offset order; the last is `winner`. */
  applied: E[];
  /** Whether the key had a stored row before the batch. */
  existed: boolean;
}

type Versioned = Pick<RecordEnvelope, 'id' | 'key' | 'observed_at'>;

/**
 * Reduces a batch (offset order) to one record per key, as applying the records one by one would:
 * a record is applied unless its id is the one of the version standing at that point (the same
 * record again) or it is older than that version; the last applied record of a key wins. A record
 * may be older than one earlier in the batch and still newer than the stored row: it is dropped,
 * as it would be one by one. Pure. Winners are listed in the offset order of the winning record;
 * the outcome lists their envelope keys (inserted when the key had no stored row).
 */
export function latestPerKey<E extends Versioned>(
  envelopes: ReadonlyArray<E>,
  keyOf: (e: E) => string,
  stored: ReadonlyMap<string, StoredVersion>,
): { winners: KeyWinner<E>[]; outcome: BatchOutcome } {
  const standing = new Map<string, { id: string; at: number; applied: E[]; index: number }>();
  for (const [key, s] of stored) standing.set(key, { id: s.record_id, at: new Date(s.observed_at).getTime(), applied: [], index: -1 });
  envelopes.forEach((e, index) => {
    const key = keyOf(e);
    const at = new Date(e.observed_at).getTime();
    const current = standing.get(key);
    if (current && (current.id === e.id || current.at > at)) return;
    standing.set(key, { id: e.id, at, applied: [...(current?.applied ?? []), e], index });
  });
  const winners = [...standing.entries()]
    .filter(([, s]) => s.applied.length > 0)
    .sort(([, a], [, b]) => a.index - b.index)
    .map(([key, s]) => ({ key, winner: s.applied[s.applied.length - 1]!, applied: s.applied, existed: stored.has(key) }));
  return {
    winners,
    outcome: {
      inserted: winners.filter((w) => !w.existed).map((w) => w.winner.key),
      updated: winners.filter((w) => w.existed).map((w) => w.winner.key),
      unchanged: envelopes.length - winners.length,
    },
  };
}

/** What applying one record did. */
export type RecordOutcome = 'inserted' | 'updated' | 'unchanged';

/**
 * Folds per-record outcomes (given in offset order) into a BatchOutcome: a key is listed once, at
 * the place of its last writing record; inserted when one of its records created the row, else
 * updated. Every other record counts as unchanged.
 */
export class OutcomeTally {
  private readonly written = new Map<string, 'inserted' | 'updated'>();
  private records = 0;

  add(key: string, outcome: RecordOutcome): void {
    this.records += 1;
    if (outcome === 'unchanged') return;
    const before = this.written.get(key);
    this.written.delete(key);
    this.written.set(key, before === 'inserted' ? 'inserted' : outcome);
  }

  result(): BatchOutcome {
    const entries = [...this.written.entries()];
    return {
      inserted: entries.filter(([, o]) => o === 'inserted').map(([k]) => k),
      updated: entries.filter(([, o]) => o === 'updated').map(([k]) => k),
      unchanged: this.records - entries.length,
    };
  }
}

/**
 * Takes the transaction-scoped advisory locks of all the keys in one statement, in ascending
 * order of the lock number (hashtext): every process takes any set of them in the same order, so
 * two batches sharing keys wait for each other instead of deadlocking (even when two keys hash alike).
 */
export async function lockKeys(m: EntityManager, keys: Iterable<string>): Promise<void> {
  const distinct = [...new Set(keys)];
  if (distinct.length === 0) return;
  await m.query(
    `SELECT count(pg_advisory_xact_lock(h)) FROM (SELECT DISTINCT hashtext(k)::bigint AS h FROM unnest($1::text[]) AS k ORDER BY h) AS locks`,
    [distinct],
  );
}
