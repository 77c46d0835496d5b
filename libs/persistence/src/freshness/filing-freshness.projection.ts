import type { EntityManager } from 'typeorm';
import type { FilingData, RecordEnvelope } from '@app/contracts';
import { LIVE_DISCOVERY_SOURCES } from './filing-freshness.table';

/** The first sighting of a filing in one batch: what its freshness row starts from. */
export interface FilingSighting {
  accession: string;
  cik: string;
  form: string;
  acceptedAt: string;
  /** The earliest observed_at of the batch's live records of the filing, and their source. */
  firstSeenAt: string;
  firstSeenSource: string;
  /** The earliest Kafka timestamp among them; null when none was given. */
  publishedAt: Date | null;
}

/** A filing the pipeline served for the first time (its freshness row was made), with the times the served lag is measured between. */
export interface FirstServedFiling {
  accession: string;
  acceptedAt: Date;
  projectedAt: Date;
}

/**
 * The batch's sightings by live discovery, one per accession (pure). Only records of a live source
 * with an acceptance time count: without one there is nothing to measure from. `producedAt[i]` is
 * the Kafka timestamp of `envelopes[i]`.
 */
export function filingSightings(envelopes: ReadonlyArray<RecordEnvelope<FilingData>>, producedAt: ReadonlyArray<Date | null>): FilingSighting[] {
  const byAccession = new Map<string, FilingSighting>();
  envelopes.forEach((e, i) => {
    const d = e.data;
    if (!LIVE_DISCOVERY_SOURCES.includes(d.source) || d.accepted_at === null) return;
    const produced = producedAt[i] ?? null;
    const seen = byAccession.get(d.accession);
    if (!seen) {
      byAccession.set(d.accession, {
        accession: d.accession,
        cik: d.cik,
        form: d.form,
        acceptedAt: d.accepted_at,
        firstSeenAt: e.observed_at,
        firstSeenSource: d.source,
        publishedAt: produced,
      });
      return;
    }
    if (Date.parse(e.observed_at) < Date.parse(seen.firstSeenAt)) {
      seen.firstSeenAt = e.observed_at;
      seen.firstSeenSource = d.source;
    }
    if (produced && (!seen.publishedAt || produced < seen.publishedAt)) seen.publishedAt = produced;
  });
  // Sorted by accession: the lock order of the insert, as the filings upsert takes them.
  return [...byAccession.values()].sort((a, b) => (a.accession < b.accession ? -1 : a.accession > b.accession ? 1 : 0));
}

/*
 * The first sighting makes the row, and its published and projected times stay: they say when the
 * pipeline first published and served the filing. A later record seen earlier (another poller that
 * fetched sooner but published later) moves only first_seen_at and its source.
 */
const SIGHTINGS_SQL = `
  INSERT INTO filing_freshness (accession, cik, form, accepted_at, first_seen_at, first_seen_source, published_at, projected_at)
  SELECT x.accession, x.cik, x.form, x.accepted_at, x.first_seen_at, x.first_seen_source, x.published_at, clock_timestamp()
    FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::text[], $7::timestamptz[])
      AS x(accession, cik, form, accepted_at, first_seen_at, first_seen_source, published_at)
  ON CONFLICT (accession) DO UPDATE SET first_seen_at = EXCLUDED.first_seen_at, first_seen_source = EXCLUDED.first_seen_source
  WHERE EXCLUDED.first_seen_at < filing_freshness.first_seen_at
  RETURNING accession, accepted_at AS "acceptedAt", projected_at AS "projectedAt", (xmax = 0) AS inserted`;

/**
 * Records the batch's live sightings in the caller's transaction (the filings projection's) and
 * returns the filings served for the first time.
 */
export async function recordFilingSightings(m: EntityManager, sightings: ReadonlyArray<FilingSighting>): Promise<FirstServedFiling[]> {
  if (sightings.length === 0) return [];
  const col = <T>(f: (s: FilingSighting) => T): T[] => sightings.map(f);
  const rows = await m.query<Array<FirstServedFiling & { inserted: boolean }>>(SIGHTINGS_SQL, [
    col((s) => s.accession),
    col((s) => s.cik),
    col((s) => s.form),
    col((s) => s.acceptedAt),
    col((s) => s.firstSeenAt),
    col((s) => s.firstSeenSource),
    col((s) => s.publishedAt),
  ]);
  return rows.filter((r) => r.inserted).map(({ inserted: _inserted, ...served }) => served);
}
