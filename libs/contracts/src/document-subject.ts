import type { DocGroup, DocSubject, DocType } from './issuer-pages.schema';

export interface SubjectInput {
  docType: DocType;
  docGroup: DocGroup;
  title: string | null;
  /** The 8-K items of the filing an exhibit came with (today's numbering); null for an IR-site document. */
  items: readonly string[] | null;
}

const RESULTS_TITLE = /\b(?:Q[1-4]|(?:first|second|third|fourth)[- ]quarter|quarterly|results|earnings|fiscal (?:year )?\d{4}|full[- ]year|year[- ]end)\b/i;
const GOVERNANCE_TITLE = /\b(?:annual (?:general )?meeting|shareholder meeting|proxy|board of directors|appoint|resign|retire|succession)\b/i;

/** Items by what they are about, most telling first (an 8-K with 2.02 and 7.01 is an earnings 8-K). */
const SUBJECT_OF_ITEMS: ReadonlyArray<[DocSubject, RegExp]> = [
  ['earnings', /^2\.02$/],
  ['transactions', /^(?:1\.01|1\.02|2\.01)$/],
  ['financing', /^(?:1\.03|1\.04|2\.03|2\.04|3\.0[1-3])$/],
  ['governance', /^5\.\d{2}$/],
];

/**
 * What a document is about (the API's doc_group). An exhibit goes by its filing's items, except
 * that a release filed under Regulation FD or Other Events (7.01, 8.01) that announces results is
 * about earnings; an IR document by its type and title. Pure.
 */
export function documentSubject(input: SubjectInput): DocSubject {
  const title = input.title ?? '';
  if (input.items) {
    for (const [subject, pattern] of SUBJECT_OF_ITEMS) if (input.items.some((i) => pattern.test(i))) return subject;
    if (RESULTS_TITLE.test(title) && /results|earnings/i.test(title)) return 'earnings';
    return input.items.some((i) => /^(?:7\.01|8\.01)$/.test(i)) ? 'disclosure' : 'other';
  }
  if (input.docType === 'proxy_statement' || GOVERNANCE_TITLE.test(title)) return 'governance';
  if (input.docGroup === 'transcript' || input.docType === 'annual_report' || input.docType === 'quarterly_report') return 'earnings';
  return RESULTS_TITLE.test(title) ? 'earnings' : 'other';
}
