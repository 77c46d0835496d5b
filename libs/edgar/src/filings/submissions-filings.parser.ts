import { EdgarParseError } from '../edgar.parse-error';
import { isRecord, parseJsonBytes } from '../json-bytes';
import { filingColumnsOf, type RecentFiling } from '../submissions.parser';

/**
 * An overflow file listed in `filings.files` (`CIK##########-submissions-001.json`): the same
 * columnar shape as `filings.recent`, at the top level of the file.
 */
export function parseSubmissionsOverflow(bytes: Uint8Array | string): RecentFiling[] {
  const json = parseJsonBytes(bytes, 'submissions overflow JSON');
  if (!isRecord(json) || !Array.isArray(json.accessionNumber)) {
    throw new EdgarParseError('submissions overflow JSON', 'no accessionNumber column');
  }
  return filingColumnsOf(json);
}

/** `items` as SEC writes it ("2.02,9.01") to a list; empty when none. */
export function itemsOf(items: string | null): string[] {
  return items ? items.split(',').map((i) => i.trim()).filter(Boolean) : [];
}
