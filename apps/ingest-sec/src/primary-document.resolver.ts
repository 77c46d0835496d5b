import { archivesDocumentPath, EdgarParseError, parseFilingDirectory, type EdgarClient } from '@app/edgar';
import { documentPath } from './segments/segment.mapper';

/** A filing to read: its filer, accession and the document its filing record names (path or sec.gov URL). */
export interface NamedDocument {
  cik: string;
  accession: string;
  document: string;
}

export type PrimaryDocument = { kind: 'document'; path: string } | { kind: 'unresolved'; url: string; reason: string };

/** Whether a URL or path is a filing index page (`<accession>-index.htm`), which daily-index and current-events rows name. */
export function isFilingIndexPage(document: string): boolean {
  return /-index\.html?$/i.test(document);
}

/**
 * The path of a filing's primary HTML document: the named document itself, or, when the record
 * names the filing index page (live-discovered filings), the likely primary document of the
 * filing's directory listing `index.json`. index.json rather than the index page: its path follows
 * from CIK and accession alone, it is small JSON, and the fixture EDGAR day serves it; its guess
 * skips EDGAR's own files and exhibits, which leaves the main document for 10-K, 10-Q and 8-K
 * (see the spec, checked against the typed index pages). One request per index-page filing.
 */
export async function resolvePrimaryDocument(edgar: EdgarClient, filing: NamedDocument): Promise<PrimaryDocument> {
  if (!isFilingIndexPage(filing.document)) return { kind: 'document', path: documentPath(filing.document) };
  const listing = await edgar.getWww(archivesDocumentPath(filing.cik, filing.accession, 'index.json'));
  if (listing.kind === 'not_found') return { kind: 'unresolved', url: listing.url, reason: 'no directory listing (404)' };
  let name: string | null;
  try {
    name = parseFilingDirectory(listing.bytes).likelyPrimaryDocument;
  } catch (error) {
    if (!(error instanceof EdgarParseError)) throw error;
    return { kind: 'unresolved', url: listing.url, reason: error.message };
  }
  if (!name || !/\.html?$/i.test(name)) return { kind: 'unresolved', url: listing.url, reason: `no HTML primary document in the listing (${name ?? 'none'})` };
  return { kind: 'document', path: archivesDocumentPath(filing.cik, filing.accession, name) };
}
