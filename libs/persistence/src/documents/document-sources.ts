import type { EntityManager } from 'typeorm';

/*
 * One document from two sources. An issuer links its press release on its IR site and files it as
 * an 8-K exhibit: two URLs, one document. The row keeps the URL it was first seen under; the other
 * source's URL becomes an alias of it (document_aliases), and its records apply to that row.
 * Two sources are the same document when they are of the same issuer, their titles agree (the IR
 * link's text and the release's headline, compared on letters and digits only; one may contain the
 * other when both are long) and their dates are within days (the IR page's date, the filing date).
 */

/** The per-issuer lock both document projections take, so matching across URLs sees a settled issuer. */
export const documentIssuerLock = (cik: string): string => `documents-issuer:${cik}`;

/** A row a record applies to: by its own URL, or through an alias. */
export interface DocumentTarget {
  id: number;
  /** The row's URL (the first source's). */
  url: string;
  /** The URL whose text the row holds; null before any text. */
  textUrl: string | null;
}

/** The row of a URL: its own, else the one an alias names; null when neither. */
export async function resolveDocument(m: EntityManager, url: string): Promise<DocumentTarget | null> {
  const rows = await m.query<Array<{ id: number; url: string; text_url: string | null }>>(
    `SELECT id, url, text_url FROM documents WHERE url = $1
     UNION ALL
     SELECT d.id, d.url, d.text_url FROM document_aliases a JOIN documents d ON d.id = a.document_id WHERE a.url = $1
     LIMIT 1`,
    [url],
  );
  const row = rows[0];
  return row ? { id: row.id, url: row.url, textUrl: row.text_url } : null;
}

/** Letters and digits of a title, lower-cased: how two sources' titles are compared. */
export function titleKey(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** Titles this long may match by containment ("Q1 results" alone never does). */
const MIN_CONTAINED_KEY = 24;
const TITLE_MATCHES = (column: string, param: string) => {
  const key = `regexp_replace(lower(${column}), '[^a-z0-9]+', '', 'g')`;
  return `(${key} = ${param} OR (length(${param}) >= ${MIN_CONTAINED_KEY} AND length(${key}) >= ${MIN_CONTAINED_KEY}
    AND (strpos(${key}, ${param}) > 0 OR strpos(${param}, ${key}) > 0)))`;
};

/**
 * The IR document an exhibit is: same issuer, a link and no filing yet, dated from two days before
 * the filing to three after, the title matching. Null when none.
 */
export async function irDocumentMatching(m: EntityManager, exhibit: { cik: string; title: string; filedDate: string }): Promise<DocumentTarget | null> {
  const rows = await m.query<Array<{ id: number; url: string; text_url: string | null }>>(
    `SELECT id, url, text_url FROM documents
     WHERE cik = $1 AND link_url IS NOT NULL AND filing_url IS NULL AND published_at IS NOT NULL
       AND (published_at AT TIME ZONE 'UTC')::date BETWEEN $2::date - 2 AND $2::date + 3
       AND ${TITLE_MATCHES('title', '$3')}
     ORDER BY abs((published_at AT TIME ZONE 'UTC')::date - $2::date), id LIMIT 1`,
    [exhibit.cik, exhibit.filedDate, titleKey(exhibit.title)],
  );
  const row = rows[0];
  return row ? { id: row.id, url: row.url, textUrl: row.text_url } : null;
}

/** The filing exhibit an IR link is: the same rule seen from the link (dated, same issuer, no link yet). */
export async function exhibitMatching(m: EntityManager, link: { cik: string; title: string; publishedOn: string }): Promise<DocumentTarget | null> {
  const rows = await m.query<Array<{ id: number; url: string; text_url: string | null }>>(
    `SELECT id, url, text_url FROM documents
     WHERE cik = $1 AND filing_url IS NOT NULL AND link_url IS NULL
       AND (filing->>'filed_date')::date BETWEEN $2::date - 3 AND $2::date + 2
       AND ${TITLE_MATCHES('title', '$3')}
     ORDER BY abs((filing->>'filed_date')::date - $2::date), id LIMIT 1`,
    [link.cik, link.publishedOn, titleKey(link.title)],
  );
  const row = rows[0];
  return row ? { id: row.id, url: row.url, textUrl: row.text_url } : null;
}

/** Records of `url` apply to the document from now on. */
export async function addDocumentAlias(m: EntityManager, url: string, documentId: number): Promise<void> {
  await m.query('INSERT INTO document_aliases (url, document_id) VALUES ($1, $2) ON CONFLICT (url) DO NOTHING', [url, documentId]);
}
