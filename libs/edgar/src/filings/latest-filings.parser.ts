import { Parser } from 'htmlparser2';
import { EdgarParseError } from '../edgar.parse-error';
import { ACCESSION_RE } from './filing-urls';

/** One entry of EDGAR's latest-filings Atom feed: a filing as seen by one of its filers. */
export interface LatestFilingEntry {
  accession: string;
  form: string;
  /** 10-digit zero-padded CIK of this entry's filer. */
  cik: string;
  companyName: string;
  /** `Issuer`, `Reporting`, `Filer`, `Filed by`, `Subject`: one entry per role of a multi-filer filing. */
  role: string | null;
  /** The entry's `<updated>`: EDGAR's acceptance time, converted to ISO UTC. */
  acceptedAt: string;
  /** `Filed:` date of the summary (YYYY-MM-DD). */
  filedDate: string;
  /** The `<entry>` element exactly as it stands in the feed: the provenance quote. */
  quote: string;
}

export interface LatestFilingsFeed {
  /** The feed's own `<updated>` (when EDGAR generated it), ISO UTC; null when absent. */
  updated: string | null;
  /** Newest first, as the feed lists them. */
  entries: LatestFilingEntry[];
  /** Why each entry that could not be read was left out (one odd entry does not cost the page). */
  skipped: string[];
}

const SOURCE = 'latest filings feed';
// "4 - DAVIS CHARLES A (0001071287) (Reporting)"; a company name may itself hold " - " and parentheses.
const TITLE_RE = /^(.+?) - (.+) \((\d{1,10})\)(?: \(([^()]+)\))?$/;

/**
 * Parses the `browse-edgar?action=getcurrent&output=atom` feed (declared ISO-8859-1; read as
 * latin1 so any byte maps to one character and quote offsets hold). A filing with several filers
 * appears once per filer; callers group by accession. Only a document that is not a feed throws.
 */
export function parseLatestFilingsFeed(bytes: Uint8Array | string): LatestFilingsFeed {
  const xml = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('latin1');
  if (!/<feed[\s>]/.test(xml)) throw new EdgarParseError(SOURCE, 'not an Atom feed (no <feed> element)');
  let updated: string | null = null;
  const entries: LatestFilingEntry[] = [];
  const skipped: string[] = [];
  let entry: { start: number; fields: Record<string, string>; term: string } | null = null;
  let field: string | null = null;
  let text = '';

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'entry') entry = { start: parser.startIndex, fields: {}, term: '' };
        else if (entry && name === 'category' && attrs.label === 'form type') entry.term = attrs.term ?? '';
        if (name === 'title' || name === 'summary' || name === 'updated' || name === 'id') {
          field = name;
          text = '';
        }
      },
      ontext(t) {
        if (field) text += t;
      },
      onclosetag(name) {
        if (name === field) {
          if (entry) entry.fields[name] = text.trim();
          else if (name === 'updated') updated = isoOrNull(text.trim());
          field = null;
        }
        if (name === 'entry' && entry) {
          const read = entryOf(entry.fields, entry.term, xml.slice(entry.start, parser.endIndex + 1));
          if (typeof read === 'string') skipped.push(read);
          else entries.push(read);
          entry = null;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
  return { updated, entries, skipped };
}

/** The entry, or why it cannot be read. */
function entryOf(fields: Record<string, string>, term: string, quote: string): LatestFilingEntry | string {
  const title = TITLE_RE.exec(fields.title ?? '');
  if (!title) return `entry title not "FORM - NAME (CIK) (ROLE)": ${JSON.stringify(fields.title)}`;
  const accession = /accession-number=(\d{10}-\d{2}-\d{6})/.exec(fields.id ?? '')?.[1] ?? /AccNo:\s*(?:<\/b>)?\s*(\d{10}-\d{2}-\d{6})/.exec(fields.summary ?? '')?.[1];
  if (!accession || !ACCESSION_RE.test(accession)) return `entry without an accession number: ${JSON.stringify(fields.id)}`;
  const acceptedAt = isoOrNull(fields.updated ?? '');
  if (!acceptedAt) return `entry ${accession}: <updated> is not a time: ${JSON.stringify(fields.updated)}`;
  const filedDate = /Filed:\s*(?:<\/b>)?\s*(\d{4}-\d{2}-\d{2})/.exec(fields.summary ?? '')?.[1];
  if (!filedDate) return `entry ${accession}: no "Filed:" date in its summary`;
  return {
    accession,
    // The category term is the form as EDGAR types it; the title's form is the same text.
    form: term || title[1]!.trim(),
    cik: title[3]!.padStart(10, '0'),
    companyName: title[2]!.trim(),
    role: title[4] ?? null,
    acceptedAt,
    filedDate,
    quote,
  };
}

/** An Atom date-time with its offset (2026-01-12T11:27:39-05:00) as ISO UTC, or null. */
function isoOrNull(text: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
