import { EdgarParseError } from '../edgar.parse-error';
import { isRecord, parseJsonBytes } from '../json-bytes';
import { filingColumnsOf, type RecentFiling } from '../submissions.parser';
import { eightKItem, legacyEightKItem, type EightKItem } from '../eightk/items';

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

/**
 * `items` as SEC writes it ("2.02,9.01"; an old 8-K's "5,7") in today's numbering, an old number
 * mapped and kept; unique, ordered by number; numbers the form never had are dropped; [] when none.
 */
export function itemsOf(items: string | null): EightKItem[] {
  const byNumber = new Map<string, EightKItem>();
  for (const part of (items ?? '').split(',')) {
    const item = eightKItem(part) ?? (/^\s*\d{1,2}\s*$/.test(part) ? legacyEightKItem(part) : null);
    if (item && !byNumber.has(item.number)) byNumber.set(item.number, item);
  }
  return [...byNumber.values()].sort((a, b) => Number(a.number) - Number(b.number));
}
