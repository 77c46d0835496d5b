import { htmlLines, looksLikeHtml } from './html-lines';

/**
 * The Form 8-K item catalog and the three places an 8-K states its items: the submissions JSON
 * (`"2.02,9.01"`), the SGML header (`ITEM INFORMATION:` lines give TITLES, `<ITEMS>` tags of the
 * .nc dissemination file give numbers) and the main document's own "Item 2.02 ..." headings.
 * The header can list fewer items than the document (MMM 2024: header "Other Events" only, the
 * document states 8.01 and 9.01), so a caller that wants the items as filed reads the document.
 */

/**
 * Current items (numbering in force since 2004-08-23), with the titles of the General
 * Instructions of Form 8-K as SEC prints them today. Later additions: 1.04 (2010, mine safety),
 * 5.08 (2010, proxy access), 1.05 (2023, cybersecurity); 6.01-6.05 came with Regulation AB
 * (2005), 6.06 and 6.10 with Regulation AB II (2014). There are no items 6.07-6.09.
 */
export const EIGHT_K_ITEM_TITLES: Readonly<Record<string, string>> = Object.freeze({
  '1.01': 'Entry into a Material Definitive Agreement',
  '1.02': 'Termination of a Material Definitive Agreement',
  '1.03': 'Bankruptcy or Receivership',
  '1.04': 'Mine Safety \u2013 Reporting of Shutdowns and Patterns of Violations',
  '1.05': 'Material Cybersecurity Incidents',
  '2.01': 'Completion of Acquisition or Disposition of Assets',
  '2.02': 'Results of Operations and Financial Condition',
  '2.03': 'Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement of a Registrant',
  '2.04': 'Triggering Events That Accelerate or Increase a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement',
  '2.05': 'Costs Associated with Exit or Disposal Activities',
  '2.06': 'Material Impairments',
  '3.01': 'Notice of Delisting or Failure to Satisfy a Continued Listing Rule or Standard; Transfer of Listing',
  '3.02': 'Unregistered Sales of Equity Securities',
  '3.03': 'Material Modification to Rights of Security Holders',
  '4.01': "Changes in Registrant's Certifying Accountant",
  '4.02': 'Non-Reliance on Previously Issued Financial Statements or a Related Audit Report or Completed Interim Review',
  '5.01': 'Changes in Control of Registrant',
  '5.02': 'Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers',
  '5.03': 'Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year',
  '5.04': "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans",
  '5.05': "Amendments to the Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics",
  '5.06': 'Change in Shell Company Status',
  '5.07': 'Submission of Matters to a Vote of Security Holders',
  '5.08': 'Shareholder Director Nominations',
  '6.01': 'ABS Informational and Computational Material',
  '6.02': 'Change of Servicer or Trustee',
  '6.03': 'Change in Credit Enhancement or Other External Support',
  '6.04': 'Failure to Make a Required Distribution',
  '6.05': 'Securities Act Updating Disclosure',
  '6.06': 'Static Pool',
  '6.10': 'Alternative Filings of Asset-Backed Issuers',
  '7.01': 'Regulation FD Disclosure',
  '8.01': 'Other Events',
  '9.01': 'Financial Statements and Exhibits',
});

/** The day the renumbered form took effect (Release 33-8400): filings before it use Items 1-12. */
export const EIGHT_K_RENUMBERED_ON = '2004-08-23';

/**
 * Items 1-12 of the Form 8-K in force before 2004-08-23 and the current item that took each over.
 * Titles and numbers of the old form as amended through 2003 (items 10-12 were added in 2003 for
 * code-of-ethics waivers, Regulation BTR blackouts and earnings releases); the mapping follows
 * SEC Release 33-8400 ("Additional Form 8-K Disclosure Requirements and Acceleration of Filing
 * Date", March 2004), which moved these items into the new sections. The release text itself was
 * not reachable from here; the titles were checked against secondary summaries of the release
 * and the fixtures (AAPL 2000 "Item 5. Other Events" / "Item 7. Financial Statements ...",
 * LGE-KU 2003 "Item 9. Regulation FD Disclosure").
 */
export const LEGACY_EIGHT_K_ITEMS: Readonly<Record<string, { title: string; current: string }>> = Object.freeze({
  '1': { title: 'Changes in Control of Registrant', current: '5.01' },
  '2': { title: 'Acquisition or Disposition of Assets', current: '2.01' },
  '3': { title: 'Bankruptcy or Receivership', current: '1.03' },
  '4': { title: "Changes in Registrant's Certifying Accountant", current: '4.01' },
  '5': { title: 'Other Events', current: '8.01' },
  '6': { title: "Resignations of Registrant's Directors", current: '5.02' },
  '7': { title: 'Financial Statements and Exhibits', current: '9.01' },
  '8': { title: 'Change in Fiscal Year', current: '5.03' },
  '9': { title: 'Regulation FD Disclosure', current: '7.01' },
  '10': { title: "Amendments to the Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics", current: '5.05' },
  '11': { title: "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans", current: '5.04' },
  '12': { title: 'Results of Operations and Financial Condition', current: '2.02' },
});

/**
 * Titles EDGAR headers and filers use besides the current ones: earlier wordings of current items
 * and the old form's titles. The ITEM INFORMATION lines follow EDGAR's own list, which writes 5.02
 * with a colon before "Compensatory" (punctuation is ignored when matching).
 */
const TITLE_ALIASES: Readonly<Record<string, string>> = {
  'Departure of Directors or Principal Officers; Election of Directors; Appointment of Principal Officers': '5.02',
  'Financial Statements, Pro Forma Financial Information and Exhibits': '9.01',
  'Other Events and Regulation FD Disclosure': '8.01',
  'Amendments to the Registrants Code of Ethics or Waiver of a Provision of the Code of Ethics': '5.05',
};

export interface EightKItem {
  /** Current item number, "2.02". */
  number: string;
  /** The item's current title (EIGHT_K_ITEM_TITLES). */
  title: string;
  /** The pre-2004 item number as the filing printed it ("5") when it was mapped; else null. */
  legacy_number: string | null;
}

/** Titles compared without case, punctuation or spacing ("Certain Officers: Compensatory" = "; Compensatory"). */
export function normalizeItemTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/[\u2018\u2019']/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const BY_TITLE: ReadonlyMap<string, string> = new Map([
  ...Object.entries(EIGHT_K_ITEM_TITLES).map(([n, t]) => [normalizeItemTitle(t), n] as const),
  ...Object.values(LEGACY_EIGHT_K_ITEMS).map(({ title, current }) => [normalizeItemTitle(title), current] as const),
  ...Object.entries(TITLE_ALIASES).map(([t, n]) => [normalizeItemTitle(t), n] as const),
]);

const byNumber = (a: EightKItem, b: EightKItem): number => Number(a.number) - Number(b.number);

/** Unique by current number (first seen wins), ordered by number. */
function uniqueSorted(items: EightKItem[]): EightKItem[] {
  const seen = new Map<string, EightKItem>();
  for (const item of items) if (!seen.has(item.number)) seen.set(item.number, item);
  return [...seen.values()].sort(byNumber);
}

/** A current item by number ("2.02", also "2.2" or " 2.02 "); null when the form has no such item. */
export function eightKItem(number: string): EightKItem | null {
  const m = /^\s*(\d{1,2})\.(\d{1,2})\s*$/.exec(number);
  if (!m) return null;
  const key = `${Number(m[1])}.${m[2]!.padStart(2, '0')}`;
  const title = EIGHT_K_ITEM_TITLES[key];
  return title ? { number: key, title, legacy_number: null } : null;
}

/** A pre-2004 item ("5") as the current item it maps to, flagged with its old number. */
export function legacyEightKItem(number: string): EightKItem | null {
  const key = String(Number(number.trim()));
  const legacy = LEGACY_EIGHT_K_ITEMS[key];
  if (!legacy) return null;
  return { number: legacy.current, title: EIGHT_K_ITEM_TITLES[legacy.current]!, legacy_number: key };
}

/** The submissions JSON's comma-joined `items` ("2.02,9.01"); unknown numbers are dropped; "" gives []. */
export function eightKItemsFromList(s: string): EightKItem[] {
  return uniqueSorted(s.split(',').flatMap((part) => eightKItem(part) ?? []));
}

export interface HeaderItems {
  items: EightKItem[];
  /** Non-empty titles that match no known item, as written. */
  unmatched: string[];
}

/** The SGML header's ITEM INFORMATION titles to items; empty titles (old filings) are ignored. */
export function eightKItemsFromHeaderTitles(titles: readonly string[]): HeaderItems {
  const items: EightKItem[] = [];
  const unmatched: string[] = [];
  for (const raw of titles) {
    const title = raw.trim();
    if (!title) continue;
    const number = BY_TITLE.get(normalizeItemTitle(title));
    const item = number ? eightKItem(number) : null;
    if (item) items.push(item);
    else unmatched.push(title);
  }
  return { items: uniqueSorted(items), unmatched };
}

// "Item 2.02", "ITEM 9.01(d)", "Item 5.     OTHER EVENTS.", "Item 9. Regulation FD", "Item 7(c)".
// Only at the start of a line: cross-references inside sentences ("furnished under Item 2.02")
// restate items already headed elsewhere, and "Items 1 through 4 ... Not Applicable" lists absent ones.
const ITEM_HEADING = /^item\s*(\d{1,2})(?:\.(\d{1,2})(?!\d))?(?![\d.]*\d)/i;

/**
 * Items as the main document states them, ordered by number and unique. `text` is the document's
 * text, or its HTML (read as visible lines first). Old numbers (Item 1-12) count only for
 * filings filed before 2004-08-23 (`filedDate` YYYY-MM-DD) and come back flagged with
 * legacy_number; decimal numbers count at any date.
 */
export function eightKItemsFromDocument(text: string, filedDate: string): EightKItem[] {
  const lines = looksLikeHtml(text) ? htmlLines(text) : text.split(/\r\n|\r|\n/);
  const legacyEra = filedDate < EIGHT_K_RENUMBERED_ON;
  const items: EightKItem[] = [];
  for (const raw of lines) {
    const m = ITEM_HEADING.exec(raw.replace(/[\s\u00a0]+/g, ' ').trim());
    if (!m) continue;
    const item = m[2] !== undefined ? eightKItem(`${m[1]}.${m[2]}`) : legacyEra ? legacyEightKItem(m[1]!) : null;
    if (item) items.push(item);
  }
  return uniqueSorted(items);
}
