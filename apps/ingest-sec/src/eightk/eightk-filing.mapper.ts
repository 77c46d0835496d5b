import { contentHash, type FilingData, type FilingRecordV1, type RecordOrigin } from '@app/contracts';
import { archivesDocumentPath, eightKItemsFromDocument, exhibitPages, isAmendmentForm, type CompleteSubmission, type EightKItem } from '@app/edgar';
import { filingEnvelope, SEC_WWW } from '../filings/filing.mapper';

/** An 8-K's items as read from its submission, in today's numbering. */
export interface SubmissionItems {
  numbers: string[];
  /** Items printed under the old numbering (before 2004-08-23), with the number printed. */
  legacy: Array<{ number: string; legacy_number: string }>;
  /** Header item titles that name no item of the form (said in the log, not guessed). */
  unmatched: string[];
}

/**
 * The items of an 8-K: those its main document states, and those its header lists. The header's
 * titles can list fewer items than the document (3M's 0000066740-24-000023 lists "Other Events"
 * only, while its document states 8.01 and 9.01), and an old filing's header none at all. Pure.
 */
export function eightKItemsOf(submission: CompleteSubmission, filedDate: string): SubmissionItems {
  const main = mainDocument(submission);
  const fromDocument: EightKItem[] =
    main && !main.binary && (main.format === 'html' || main.format === 'text') ? eightKItemsFromDocument(exhibitPages(main.body, main.format).pages.join('\n'), filedDate) : [];
  const byNumber = new Map<string, EightKItem>();
  for (const item of [...fromDocument, ...submission.items]) if (!byNumber.has(item.number)) byNumber.set(item.number, item);
  // "2.02" < "9.01" < "10.01" as numbers: the minor part always has two digits.
  const items = [...byNumber.values()].sort((a, b) => Number(a.number) - Number(b.number));
  return {
    numbers: items.map((i) => i.number),
    legacy: items.filter((i) => i.legacy_number !== null).map((i) => ({ number: i.number, legacy_number: i.legacy_number! })),
    unmatched: submission.items_unmatched,
  };
}

/** The 8-K itself: the first document of the submission's form type, else the first document. */
function mainDocument(submission: CompleteSubmission): CompleteSubmission['documents'][number] | null {
  const form = submission.form?.toUpperCase();
  return submission.documents.find((d) => d.type.toUpperCase() === form) ?? submission.documents[0] ?? null;
}

/**
 * The filing@1 record of an 8-K read from its complete submission (source submission_text): the
 * record that named it (daily index, current events) with the items, acceptance time, period and
 * primary document the submission gives; for a named 8-K with no record, everything from the
 * submission's header. Pure. The quote is the header's accession line.
 */
export function eightKFilingRecordOf(
  known: FilingData | null,
  filing: { cik: string; accession: string; form: string; filedDate: string },
  submission: CompleteSubmission,
  items: SubmissionItems,
  source: { url: string; bytes: Uint8Array; fetchedAt: string },
  ctx: { runId: string; origin: RecordOrigin; extractedAt: string },
): FilingRecordV1 {
  const { cik, accession } = filing;
  const main = mainDocument(submission);
  const filer = submission.filers.find((f) => f.cik === cik) ?? submission.filers[0];
  const data: FilingData = {
    accession,
    cik,
    company_name: known?.company_name ?? filer?.name ?? cik,
    form: filing.form,
    filed_date: filing.filedDate,
    accepted_at: submission.accepted_at ?? known?.accepted_at ?? null,
    report_period: submission.period_of_report ?? known?.report_period ?? null,
    primary_document_url: main?.filename
      ? `${SEC_WWW}${archivesDocumentPath(cik, accession, main.filename)}`
      : (known?.primary_document_url ?? `${SEC_WWW}${archivesDocumentPath(cik, accession, `${accession}.txt`)}`),
    primary_doc_description: known?.primary_doc_description ?? main?.description ?? null,
    items: items.numbers,
    ...(items.legacy.length > 0 ? { legacy_items: items.legacy } : {}),
    size: source.bytes.byteLength,
    is_xbrl: known?.is_xbrl ?? null,
    is_inline_xbrl: known?.is_inline_xbrl ?? null,
    is_amendment: isAmendmentForm(filing.form),
    amends_accession: null,
    act: known?.act ?? null,
    file_number: known?.file_number ?? null,
    film_number: known?.film_number ?? null,
    source: 'submission_text',
  };
  return filingEnvelope(data, { url: source.url, contentHash: contentHash(source.bytes), fetchedAt: source.fetchedAt }, `ACCESSION NUMBER:\t\t${data.accession}`, ctx);
}
