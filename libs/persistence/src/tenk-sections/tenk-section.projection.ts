import type { EntityManager } from 'typeorm';
import type { RecordEnvelope, TenkSectionData } from '@app/contracts';
import type { BatchOutcome } from '../projections/batch-outcome';

type Envelope = RecordEnvelope<TenkSectionData>;

/** How 10-Ks of one issuer are ordered: fiscal period, then filing date, then offset (unknown dates first). */
function newerOrSame(a: TenkSectionData, b: TenkSectionData): boolean {
  const pa = a.period_ended ?? '';
  const pb = b.period_ended ?? '';
  if (pa !== pb) return pa > pb;
  return (a.filed_date ?? '') >= (b.filed_date ?? '');
}

/** The newest record of each key of a batch (a later record of a 10-K as new wins: a re-extraction). */
function newestPer(envelopes: ReadonlyArray<Envelope>, keyOf: (e: Envelope) => string): Envelope[] {
  const out = new Map<string, Envelope>();
  for (const e of envelopes) {
    const seen = out.get(keyOf(e));
    if (!seen || newerOrSame(e.data, seen.data)) out.set(keyOf(e), e);
  }
  return [...out.values()];
}

/*
 * A row is replaced by a record of a 10-K at least as new (period, then filing date; same ordering
 * as newerOrSame, unknown dates lowest) unless it is the very record already applied.
 */
const NEWER = (t: string) => `(coalesce(EXCLUDED.period_ended, '0001-01-01'), coalesce(EXCLUDED.filed_date, '0001-01-01'))
    >= (coalesce(${t}.period_ended, '0001-01-01'), coalesce(${t}.filed_date, '0001-01-01'))
    AND ${t}.record_id IS DISTINCT FROM EXCLUDED.record_id`;

const SECTIONS_SQL = `
  INSERT INTO tenk_sections (cik, item, accession, form, filed_date, period_ended, document_url, text_length, extractor_version,
    title, status, reason, heading, char_start, char_end, length, cross_reference_pages, text, provenance, record_id, observed_at, updated_at)
  SELECT x.cik, x.item, x.accession, x.form, x.filed_date, x.period_ended, x.document_url, x.text_length, x.extractor_version,
    x.title, x.status, x.reason, x.heading, x.char_start, x.char_end, x.length, x.cross_reference_pages, x.text, x.provenance,
    x.record_id, x.observed_at, now()
  FROM jsonb_to_recordset($1::jsonb) AS x(cik text, item text, accession text, form text, filed_date date, period_ended date,
    document_url text, text_length integer, extractor_version text, title text, status text, reason text, heading text,
    char_start integer, char_end integer, length integer, cross_reference_pages text, text text, provenance jsonb, record_id text,
    observed_at timestamptz)
  ON CONFLICT (cik, item) DO UPDATE SET
    accession = EXCLUDED.accession, form = EXCLUDED.form, filed_date = EXCLUDED.filed_date, period_ended = EXCLUDED.period_ended,
    document_url = EXCLUDED.document_url, text_length = EXCLUDED.text_length, extractor_version = EXCLUDED.extractor_version,
    title = EXCLUDED.title, status = EXCLUDED.status, reason = EXCLUDED.reason, heading = EXCLUDED.heading,
    char_start = EXCLUDED.char_start, char_end = EXCLUDED.char_end, length = EXCLUDED.length,
    cross_reference_pages = EXCLUDED.cross_reference_pages, text = EXCLUDED.text, provenance = EXCLUDED.provenance,
    record_id = EXCLUDED.record_id, observed_at = EXCLUDED.observed_at, updated_at = now()
  WHERE ${NEWER('tenk_sections')}
  RETURNING cik, item, (xmax = 0) AS inserted`;

const DESCRIPTIONS_SQL = `
  INSERT INTO tenk_descriptions (cik, description, accession, form, filed_date, period_ended, char_start, char_end, provenance,
    record_id, observed_at, updated_at)
  SELECT x.cik, x.description, x.accession, x.form, x.filed_date, x.period_ended, x.char_start, x.char_end, x.provenance,
    x.record_id, x.observed_at, now()
  FROM jsonb_to_recordset($1::jsonb) AS x(cik text, description text, accession text, form text, filed_date date, period_ended date,
    char_start integer, char_end integer, provenance jsonb, record_id text, observed_at timestamptz)
  ON CONFLICT (cik) DO UPDATE SET
    description = EXCLUDED.description, accession = EXCLUDED.accession, form = EXCLUDED.form, filed_date = EXCLUDED.filed_date,
    period_ended = EXCLUDED.period_ended, char_start = EXCLUDED.char_start, char_end = EXCLUDED.char_end,
    provenance = EXCLUDED.provenance, record_id = EXCLUDED.record_id, observed_at = EXCLUDED.observed_at, updated_at = now()
  WHERE ${NEWER('tenk_descriptions')}`;

/**
 * Projects tenk-section@1 records: each issuer's item row holds the newest 10-K's section (a record
 * of an older 10-K, by fiscal period then filing date, writes nothing), and Item 1 records that carry
 * a description upsert the issuer's description the same way. An Item 1 without one never touches
 * it, so a newer 10-K whose Item 1 is incorporated by reference keeps the older description.
 */
export async function projectTenkSections(m: EntityManager, envelopes: ReadonlyArray<Envelope>): Promise<BatchOutcome> {
  if (envelopes.length === 0) return { inserted: [], updated: [], unchanged: 0 };
  const winners = newestPer(envelopes, (e) => `${e.data.cik}|${e.data.item}`);
  const rows = winners.map(({ data: d, provenance, id, observed_at }) => ({
    cik: d.cik,
    item: d.item,
    accession: d.accession,
    form: d.form,
    filed_date: d.filed_date,
    period_ended: d.period_ended,
    document_url: d.document_url,
    text_length: d.text_length,
    extractor_version: d.extractor_version,
    title: d.title,
    status: d.status,
    reason: d.reason,
    heading: d.heading,
    char_start: d.char_start,
    char_end: d.char_end,
    length: d.length,
    cross_reference_pages: d.cross_reference_pages,
    text: d.text,
    provenance,
    record_id: id,
    observed_at,
  }));
  const written = await m.query<Array<{ cik: string; item: string; inserted: boolean }>>(SECTIONS_SQL, [JSON.stringify(rows)]);

  const described = newestPer(
    envelopes.filter((e) => e.data.description !== null),
    (e) => e.data.cik,
  );
  if (described.length > 0) {
    const descriptions = described.map(({ data: d, provenance, id, observed_at }) => ({
      cik: d.cik,
      description: d.description!.text,
      accession: d.accession,
      form: d.form,
      filed_date: d.filed_date,
      period_ended: d.period_ended,
      char_start: d.description!.char_start,
      char_end: d.description!.char_end,
      provenance,
      record_id: id,
      observed_at,
    }));
    await m.query(DESCRIPTIONS_SQL, [JSON.stringify(descriptions)]);
  }

  const keyOf = new Map(winners.map((w) => [`${w.data.cik}|${w.data.item}`, w.key]));
  const inserted = written.filter((r) => r.inserted).map((r) => keyOf.get(`${r.cik}|${r.item}`)!);
  const updated = written.filter((r) => !r.inserted).map((r) => keyOf.get(`${r.cik}|${r.item}`)!);
  return { inserted, updated, unchanged: envelopes.length - inserted.length - updated.length };
}
