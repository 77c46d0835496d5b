import type { DayFiling } from './edgar-day';
import { eastern } from './eastern-time';
import { escapeMarkup, noDashes } from './markup';

/**
 * A filing's index page (`<accession>-index.htm`) in the layout of the real one
 * (feeds/0001562180-17-002633-index.htm, a Form 4): the filing's form, accession, "Filing Date",
 * "Accepted" (New York wall time, as EDGAR shows it), its documents, and a filer block per party
 * (issuer and reporting owner of a Form 4; the filer of any other form, titled "(Filer)" as on
 * EDGAR's other index pages). What the fixtures do not know (addresses, IRS number, SIC, the
 * form's description for forms other than 4) is left empty, never made up.
 */

export interface IndexPageDocument {
  name: string;
  sizeBytes: number;
}


/** A block of the template between two markers (both kept). */
function between(template: string, start: string, end: string): { before: string; inner: string; after: string } {
  const i = template.indexOf(start);
  const j = template.indexOf(end, i + start.length);
  if (i < 0 || j < 0) throw new Error(`filing index template: ${start} ... ${end} not found`);
  return { before: template.slice(0, i + start.length), inner: template.slice(i + start.length, j), after: template.slice(j) };
}

/** One filer block from the template's, for `name`/`cik` in `role`; its addresses and registration details emptied. */
function filerBlock(block: string, role: 'Issuer' | 'Reporting' | 'Filer', name: string, cik: string, form: string): string {
  const cik10 = cik.padStart(10, '0');
  return block
    .replace(/<span class="mailerAddress">[\s\S]*?<\/span>\s*/g, '')
    .replace(/(<span class="companyName">)[^(]*\((<a [^>]*>)?[^<)]*(<\/a>)?\)/, (_m, open: string) =>
      role === 'Filer' ? `${open}${escapeMarkup(name)} (Filer)` : `${open}${escapeMarkup(name)} (<a href="/cgi-bin/own-disp?CIK=${cik10}&amp;action=${role === 'Issuer' ? 'getissuer' : 'getowner'}">${role}</a>)`,
    )
    .replace(/(browse-edgar\?CIK=)\d{10}/, `$1${cik10}`)
    .replace(/\d{10}( \(see all company filings\))/, `${cik10}$1`)
    .replace(/<p class="identInfo">[\s\S]*?<\/p>/, `<p class="identInfo">Type: <strong>${escapeMarkup(form)}</strong></p>`);
}

/** The page for `filing`, filed on `filedDate`, with `documents` (its directory, the complete submission last). */
export function filingIndexPage(template: string, filing: DayFiling, filedDate: string, documents: readonly IndexPageDocument[], periodOfReport: string | null): string {
  const dir = `/Archives/edgar/data/${filing.cik}/${noDashes(filing.accession)}`;
  const txtName = `${filing.accession}.txt`;
  const formDocs = documents.filter((d) => d.name !== txtName);
  const txt = documents.find((d) => d.name === txtName);
  let page = template
    .replace(/(<meta http-equiv="Last-Modified" content=")[^"]*(")/, `$1${new Date(filing.acceptedAt).toUTCString()}$2`)
    .replace(/(<title>EDGAR Filing Documents for )[\d-]+/, `$1${filing.accession}`)
    // The description is the template's only for its own form.
    .replace(/<strong>Form ([^<]+)<\/strong> - ([^\n]*)/, (_m, form: string, description: string) => `<strong>Form ${escapeMarkup(filing.form)}</strong> - ${form === filing.form ? description : ''}`)
    .replace(/(<\/acronym><\/strong> )\d{10}-\d{2}-\d{6}/, `$1${filing.accession}`)
    .replace(/(Filing Date<\/div>\s*<div class="info">)[^<]*/, `$1${filedDate}`)
    .replace(/(Accepted<\/div>\s*<div class="info">)[^<]*/, `$1${eastern(filing.acceptedAt).stamp}`)
    .replace(/(Documents<\/div>\s*<div class="info">)[^<]*/, `$1${formDocs.length}`);
  page = periodOfReport
    ? page.replace(/(Period of Report<\/div>\s*<div class="info">)[^<]*/, `$1${periodOfReport}`)
    : page.replace(/\s*<div class="formGrouping">\s*<div class="infoHead">Period of Report<\/div>[\s\S]*?<\/div>\s*<\/div>/, '');

  // Document rows in the template's markup: header row kept, alternate rows blue, the complete submission last.
  const table = between(page, '</th>\n         </tr>\n', '      </table>');
  const row = (i: number, cells: string[]) =>
    `         <tr${i % 2 === 1 ? ' class="blueRow"' : ''}>\n${cells.map((c) => `            <td scope="row">${c}</td>\n`).join('')}         </tr>\n`;
  const rows = formDocs.map((d, i) => row(i, [String(i + 1), i === 0 ? 'PRIMARY DOCUMENT' : '', `<a href="${dir}/${d.name}">${escapeMarkup(d.name)}</a>`, i === 0 ? escapeMarkup(filing.form) : '', String(d.sizeBytes)]));
  rows.push(row(formDocs.length, ['&nbsp;', 'Complete submission text file', `<a href="${dir}/${txtName}">${txtName}</a>`, '&nbsp;', txt ? String(txt.sizeBytes) : '&nbsp;']));
  page = table.before + rows.join('') + table.after;

  // Filer blocks: the template's first is its issuer, its second its reporting owner.
  const filers = between(page, '<!-- START FILER DIV -->\n', '<!-- END FILER DIV -->');
  const blocks = filers.inner.split(/(?=<div id="filerDiv">)/).filter((b) => b.startsWith('<div id="filerDiv">'));
  const [issuerBlock, ownerBlock] = [blocks[0]!, blocks[1] ?? blocks[0]!];
  const owner = filing.reportingOwner;
  const parties = /^[345](\/A)?$/.test(filing.form)
    ? [filerBlock(issuerBlock, 'Issuer', filing.companyName, filing.cik, filing.form), ...(owner ? [filerBlock(ownerBlock, 'Reporting', owner.name, owner.cik, filing.form)] : [])]
    : [filerBlock(issuerBlock, 'Filer', filing.companyName, filing.cik, filing.form)];
  return filers.before + parties.join('') + filers.after;
}
