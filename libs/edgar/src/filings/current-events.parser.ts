import { Parser } from 'htmlparser2';
import { EdgarParseError } from '../edgar.parse-error';

/** One row of EDGAR's "Current Events" listing (www.sec.gov/cgi-bin/current). */
export interface CurrentEventsEntry {
  /** YYYY-MM-DD (the page prints MM-DD-YYYY). */
  dateFiled: string;
  form: string;
  /** 10-digit zero-padded. */
  cik: string;
  companyName: string;
  accession: string;
  /** `/Archives/edgar/data/<cik>/<accession>-index.html` as linked. */
  indexPath: string;
  /** The row as it stands in the page's HTML (trailing blanks trimmed): the provenance quote. */
  line: string;
}

export interface CurrentEventsListing {
  /** The day the listing is for (`The total number of matches for 2021-04-16`), when printed. */
  date: string | null;
  entries: CurrentEventsEntry[];
}

type Token = { kind: 'text'; text: string } | { kind: 'link'; href: string; text: string };

const INDEX_HREF_RE = /^\/Archives\/edgar\/data\/(\d+)\/(\d{10}-\d{2}-\d{6})-index\.html?$/;

/**
 * Parses the listing's `<pre>` block: each line is `MM-DD-YYYY  <a href=index>FORM</a>
 * <a>CIK</a>  Company name`. The quote is the source line that holds the row's index link.
 */
export function parseCurrentEvents(bytes: Uint8Array | string): CurrentEventsListing {
  const html = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  const tokens: Token[] = [];
  let inPre = 0;
  let link: { href: string; text: string } | null = null;
  let pageText = '';
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'pre') inPre += 1;
        else if (name === 'a' && inPre > 0) link = { href: attrs.href ?? '', text: '' };
        else if ((name === 'br' || name === 'hr') && inPre > 0) tokens.push({ kind: 'text', text: '\n' });
      },
      ontext(text) {
        pageText += text;
        if (inPre === 0) return;
        if (link) link.text += text;
        else tokens.push({ kind: 'text', text });
      },
      onclosetag(name) {
        if (name === 'pre') inPre = Math.max(0, inPre - 1);
        else if (name === 'a' && link) {
          tokens.push({ kind: 'link', href: link.href, text: link.text });
          link = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  if (!/EDGAR Current Events/i.test(pageText)) throw new EdgarParseError('current events listing', 'not an EDGAR Current Events page');

  // Group tokens into lines.
  const lines: Token[][] = [[]];
  for (const t of tokens) {
    if (t.kind === 'text' && t.text.includes('\n')) {
      const parts = t.text.split('\n');
      parts.forEach((part, i) => {
        if (i > 0) lines.push([]);
        if (part) lines[lines.length - 1]!.push({ kind: 'text', text: part });
      });
    } else lines[lines.length - 1]!.push(t);
  }

  const entries: CurrentEventsEntry[] = [];
  for (const line of lines) {
    const links = line.filter((t): t is Extract<Token, { kind: 'link' }> => t.kind === 'link');
    const indexLink = links.find((l) => INDEX_HREF_RE.test(l.href));
    // Not the form's own link: form "4" (or "13") is all digits too.
    const cikLink = links.find((l) => l !== indexLink && /^\d{1,10}$/.test(l.text.trim()));
    if (!indexLink || !cikLink) continue;
    const first = line[0];
    const date = first?.kind === 'text' ? /(\d{2})-(\d{2})-(\d{4})/.exec(first.text) : null;
    const last = line[line.length - 1];
    const companyName = last?.kind === 'text' ? last.text.trim() : '';
    const m = INDEX_HREF_RE.exec(indexLink.href)!;
    if (!date || !companyName) continue;
    entries.push({
      dateFiled: `${date[3]}-${date[1]}-${date[2]}`,
      form: indexLink.text.trim(),
      cik: cikLink.text.trim().padStart(10, '0'),
      companyName,
      accession: m[2]!,
      indexPath: indexLink.href,
      line: sourceLineOf(html, indexLink.href),
    });
  }
  const day = /total number of matches for (\d{4}-\d{2}-\d{2})/i.exec(pageText);
  return { date: day ? day[1]! : null, entries };
}

/** The raw HTML line holding `needle` (the href as written: these hrefs carry no entities). */
function sourceLineOf(html: string, needle: string): string {
  const at = html.indexOf(`"${needle}"`);
  if (at < 0) return needle;
  let start = html.lastIndexOf('\n', at) + 1;
  const end = html.indexOf('\n', at);
  // The first row shares its source line with the table header: start the quote at the row's date.
  const before = html.slice(start, at);
  const dates = [...before.matchAll(/\d{2}-\d{2}-\d{4}/g)];
  const lastDate = dates[dates.length - 1];
  if (lastDate?.index !== undefined) start += lastDate.index;
  return html.slice(start, end < 0 ? html.length : end).replace(/\s+$/, '');
}
