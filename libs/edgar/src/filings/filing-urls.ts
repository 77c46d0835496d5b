/** Accession number forms: `0000950170-25-100235` (dashed) and `000095017025100235` (as in Archives paths). */
export const ACCESSION_RE = /^\d{10}-\d{2}-\d{6}$/;

/** Dashed accession from its 18-digit form, or null. */
export function dashedAccession(digits: string): string | null {
  if (ACCESSION_RE.test(digits)) return digits;
  return /^\d{18}$/.test(digits) ? `${digits.slice(0, 10)}-${digits.slice(10, 12)}-${digits.slice(12)}` : null;
}

/**
 * Path of a filing's document on www.sec.gov:
 * `/Archives/edgar/data/<cik unpadded>/<accession without dashes>/<document>`.
 */
export function archivesDocumentPath(cik: string, accession: string, document: string): string {
  return `/Archives/edgar/data/${String(Number(cik))}/${accession.replace(/-/g, '')}/${document.replace(/^\/+/, '')}`;
}

/**
 * Path of an EDGAR daily index of a date (YYYY-MM-DD) in one of its layouts (form, company,
 * master): `/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx`.
 */
export function dailyIndexPath(date: string, layout: 'form' | 'company' | 'master' = 'form'): string {
  const [y, m, d] = date.split('-');
  const quarter = Math.floor((Number(m) - 1) / 3) + 1;
  return `/Archives/edgar/daily-index/${y}/QTR${quarter}/${layout}.${y}${m}${d}.idx`;
}

/**
 * Path of EDGAR's quarterly full index in the form layout (the quarter's daily form indexes in one
 * file, dates dashed): `/Archives/edgar/full-index/2020/QTR1/form.idx`.
 */
export function fullIndexPath(year: number, quarter: 1 | 2 | 3 | 4): string {
  return `/Archives/edgar/full-index/${year}/QTR${quarter}/form.idx`;
}

/** The "current events" listing of one form type (today's filings, by EDGAR's day). */
export function currentEventsPath(form: string, daysBack = 0): string {
  return `/cgi-bin/current?q1=${daysBack}&q2=0&q3=${encodeURIComponent(form)}`;
}

/** An overflow file of `filings.files` on data.sec.gov. */
export function submissionsOverflowPath(name: string): string {
  return `/submissions/${name}`;
}

/** True when the form is an amendment (`10-K/A`, `4/A`, `SC 13D/A`). */
export function isAmendmentForm(form: string): boolean {
  return /\/A$/i.test(form.trim());
}

/** A current report that carries 8-K items: 8-K, 8-K/A and the 8-K12B/8-K12G3/8-K15D5 variants. */
export function isEightKForm(form: string): boolean {
  return /^8-K/i.test(form.trim());
}

const NY_PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/**
 * `2017-08-09 15:24:40` as EDGAR prints it (US Eastern wall time, EDT or EST by date) to ISO UTC.
 * Null when the text is not such a time.
 */
export function easternToIso(text: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  // The offset of New York at that instant (first guess: EST), refined once for DST edges.
  let guess = asUtc + 5 * 3600_000;
  for (let i = 0; i < 2; i++) {
    const parts = Object.fromEntries(NY_PARTS.formatToParts(new Date(guess)).map((p) => [p.type, p.value]));
    const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
    guess += asUtc - wall;
  }
  return new Date(guess).toISOString();
}

/**
 * EDGAR's latest-filings Atom feed (all forms, owners included): `count` entries (EDGAR serves at
 * most 100) from the `start`-th newest.
 */
export function latestFilingsFeedPath(start = 0, count = 100): string {
  return `/cgi-bin/browse-edgar?action=getcurrent&count=${count}&start=${start}&type=&owner=include&output=atom`;
}
