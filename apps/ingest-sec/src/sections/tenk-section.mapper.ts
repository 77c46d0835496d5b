import { contentHash, padCik, recordId, sourceId, stableStringify, type TenkSectionData, type TenkSectionRecordV1, type RecordOrigin } from '@app/contracts';
import { TENK_ITEM_TITLES, type TenkSectionsExtraction } from '@app/edgar';

export const PRODUCED_BY = 'ingest-sec';

/** The 10-K a document belongs to. Dates are null when the caller does not know them (`--filing`). */
export interface TenkFiling {
  cik: string;
  accession: string;
  /** Form as EDGAR lists it; 10-K when unknown. */
  form: string | null;
  filedDate: string | null;
  /** The filing's period of report, when its record gives one. */
  reportPeriod: string | null;
}

/** The fetched primary document: where, when, and the sha256 of its bytes. */
export interface TenkSource {
  url: string;
  contentHash: string;
  fetchedAt: string;
}

/** Natural key of one section record: the filing and the item. */
export function tenkSectionKey(accession: string, item: string): string {
  return `${accession}|${item}`;
}

/**
 * The sections of one 10-K -> one tenk-section@1 record per item (1, 1A, 7), each with its text
 * when located, Item 1's with the description. The quote is the description (Item 1), else the
 * heading as printed, verbatim in the document text. Pure.
 */
export function tenkSectionRecordsOf(
  extraction: TenkSectionsExtraction,
  filing: TenkFiling,
  source: TenkSource,
  ctx: { runId: string; origin: RecordOrigin; extractedAt: string },
): TenkSectionRecordV1[] {
  const srcId = sourceId(source.url, source.contentHash);
  return extraction.sections.map((s) => {
    const description = s.item === '1' && extraction.description
      ? { text: extraction.description.text, char_start: extraction.description.charStart, char_end: extraction.description.charEnd }
      : null;
    const data: TenkSectionData = {
      cik: padCik(filing.cik),
      accession: filing.accession,
      form: filing.form ?? '10-K',
      filed_date: filing.filedDate,
      period_ended: filing.reportPeriod ?? extraction.fiscalYearEnded,
      document_url: source.url,
      text_length: extraction.text.length,
      extractor_version: extraction.extractorVersion,
      item: s.item,
      title: TENK_ITEM_TITLES[s.item],
      status: s.status,
      reason: s.reason,
      heading: s.heading,
      char_start: s.charStart,
      char_end: s.charEnd,
      length: s.length,
      cross_reference_pages: s.crossReferencePages,
      text: s.charStart === null || s.charEnd === null ? null : extraction.text.slice(s.charStart, s.charEnd),
      description,
    };
    const key = tenkSectionKey(filing.accession, s.item);
    return {
      schema: 'tenk-section@1',
      key,
      id: recordId(key, contentHash(stableStringify(data))),
      observed_at: source.fetchedAt,
      produced_by: PRODUCED_BY,
      correlation_id: ctx.runId,
      origin: ctx.origin,
      provenance: {
        src_id: srcId,
        source_provider: 'sec',
        source_url: source.url,
        accession: filing.accession,
        quote: description?.text ?? s.heading,
        content_hash: source.contentHash,
        extracted_at: ctx.extractedAt,
      },
      data,
    } satisfies TenkSectionRecordV1;
  });
}

