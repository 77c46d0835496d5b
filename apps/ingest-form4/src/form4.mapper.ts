import {
  FORM4_MAX_RECORD_BYTES,
  FORM4_MAX_ROWS,
  contentHash,
  recordId,
  sourceId,
  stableStringify,
  type Form4Data,
  type Form4RecordV1,
  type Form4ReportingOwnerData,
  type Form4RowData,
  type RecordOrigin,
} from '@app/contracts';
import { archivesDocumentPath, easternToIso, type Form4Document, type Form4Number, type Form4ReportingOwner, type Form4Row } from '@app/edgar';

export const FORM4_PRODUCED_BY = 'ingest-form4';

/** A fetched file: where from, when, the sha256 of its bytes, and its text (for the provenance quote). */
export interface FetchedForm4Source {
  url: string;
  contentHash: string;
  fetchedAt: string;
  text: string;
}

/** What the listing the filing was found in says of it (submissions JSON, filing@1); null when unknown. */
export interface Form4Listing {
  filedDate: string | null;
  acceptedAt: string | null;
}

export interface Form4MapContext {
  runId: string;
  /** Live discovery or history: the records' origin. */
  origin: RecordOrigin;
  extractedAt: string;
}

/** A filing whose record would pass the bounds of FORM4_MAX_ROWS / FORM4_MAX_RECORD_BYTES. */
export class Form4RecordTooLargeError extends RangeError {
  constructor(accession: string, what: string) {
    super(`Form 4 ${accession}: ${what}; one record per filing is bounded to ${FORM4_MAX_ROWS} rows and ${FORM4_MAX_RECORD_BYTES} bytes (Kafka's 1 MB message limit)`);
    this.name = 'Form4RecordTooLargeError';
  }
}

// EDGAR renders the ownership XML through a stylesheet at `xslF345X05/form4.xml`; the raw XML is
// the same file name without that folder.
const XSL_PREFIX = /^xsl[^/]*\//i;

/** Archive path of a filing's ownership XML from a primary document (file name, `xsl.../` path, Archive path or sec.gov URL). */
export function ownershipXmlPath(cik: string, accession: string, document: string): string {
  if (/^https?:\/\//i.test(document)) return ownershipXmlPath(cik, accession, new URL(document).pathname);
  if (document.startsWith('/')) {
    const slash = document.lastIndexOf('/');
    const folder = document.slice(0, slash);
    const name = document.slice(slash + 1);
    return /\/xsl[^/]*$/i.test(folder) ? `${folder.slice(0, folder.lastIndexOf('/'))}/${name}` : document;
  }
  return archivesDocumentPath(cik, accession, document.replace(XSL_PREFIX, ''));
}

/** Archive path of the complete submission text file: `/Archives/edgar/data/<cik>/<accession>.txt`. */
export function completeSubmissionPath(cik: string, accession: string): string {
  return `/Archives/edgar/data/${String(Number(cik))}/${accession}.txt`;
}

/** Whether a primary document can be the ownership XML (else only the complete submission holds it). */
export function isXmlDocument(document: string): boolean {
  return /\.xml$/i.test(document.split(/[?#]/)[0] ?? '');
}

const num = (n: Form4Number | null): number | null => n?.value ?? null;
const text = (n: Form4Number | null): string | null => n?.text ?? null;

function ownerOf(o: Form4ReportingOwner): Form4ReportingOwnerData {
  return {
    cik: o.cik !== null && /^\d{10}$/.test(o.cik) ? o.cik : null,
    name: o.name,
    address: {
      street1: o.address.street1,
      street2: o.address.street2,
      city: o.address.city,
      state: o.address.state,
      zip_code: o.address.zipCode,
      state_description: o.address.stateDescription,
    },
    is_director: o.isDirector,
    is_officer: o.isOfficer,
    officer_title: o.officerTitle,
    is_ten_percent_owner: o.isTenPercentOwner,
    is_other: o.isOther,
    other_text: o.otherText,
  };
}

/** One parsed row -> the record's row. Pure. */
export function form4RowOf(r: Form4Row): Form4RowData {
  return {
    table: r.table,
    kind: r.kind,
    sequence: r.sequence,
    security_title: r.securityTitle,
    transaction_date: r.transactionDate,
    deemed_execution_date: r.deemedExecutionDate,
    transaction_form_type: r.transactionFormType,
    code: r.transactionCode,
    code_label: r.transactionCodeInfo?.label ?? null,
    classification: r.transactionCodeInfo?.classification ?? null,
    is_open_market: r.transactionCodeInfo?.is_open_market ?? false,
    equity_swap_involved: r.equitySwapInvolved,
    transaction_timeliness: r.transactionTimeliness,
    shares: num(r.shares),
    shares_text: text(r.shares),
    total_value: num(r.totalValue),
    total_value_text: text(r.totalValue),
    price_per_share: num(r.pricePerShare),
    price_per_share_text: text(r.pricePerShare),
    acquired_disposed: r.acquiredDisposed,
    shares_owned_following: num(r.sharesOwnedFollowing),
    shares_owned_following_text: text(r.sharesOwnedFollowing),
    value_owned_following: num(r.valueOwnedFollowing),
    value_owned_following_text: text(r.valueOwnedFollowing),
    direct_indirect: r.directOrIndirect,
    nature_of_ownership: r.natureOfOwnership,
    conversion_or_exercise_price: num(r.conversionOrExercisePrice),
    conversion_or_exercise_price_text: text(r.conversionOrExercisePrice),
    exercise_date: r.exerciseDate,
    expiration_date: r.expirationDate,
    underlying_security_title: r.underlyingSecurityTitle,
    underlying_shares: num(r.underlyingSecurityShares),
    underlying_shares_text: text(r.underlyingSecurityShares),
    underlying_value: num(r.underlyingSecurityValue),
    underlying_value_text: text(r.underlyingSecurityValue),
    footnotes: r.footnoteIds,
    is_10b5_1: r.is10b5_1,
    is_10b5_1_reason: r.is10b5_1Reason,
    is_10b5_1_footnote_ids: r.is10b5_1FootnoteIds,
    quote: r.quote,
  };
}

/** `20250318200108` (SGML ACCEPTANCE-DATETIME, US Eastern) -> ISO UTC. */
function acceptanceToIso(raw: string | null): string | null {
  const m = raw ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(raw) : null;
  return m ? easternToIso(`${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}`) : null;
}

/** The record's provenance quote: the first row's XML, else the `<issuer>` block as it stands in the file. */
function quoteOf(doc: Form4Document, sourceText: string): string | null {
  const firstRow = doc.rows[0]?.quote;
  if (firstRow) return firstRow;
  return /<issuer>[\s\S]*?<\/issuer>/.exec(sourceText)?.[0] ?? null;
}

/** Parsed document -> form4@1 data. Pure. */
export function form4DataOf(doc: Form4Document, sourceUrl: string, listing: Form4Listing): Form4Data {
  if (!doc.accession) throw new RangeError(`Form 4 at ${sourceUrl}: no accession (neither in the file nor given)`);
  if (doc.rows.length > FORM4_MAX_ROWS) throw new Form4RecordTooLargeError(doc.accession, `${doc.rows.length} rows`);
  const header = doc.submissionHeader;
  return {
    accession: doc.accession,
    form: doc.documentType,
    is_amendment: doc.isAmendment,
    date_of_original_submission: doc.dateOfOriginalSubmission,
    period_of_report: doc.periodOfReport,
    filed_date: header?.filedAsOfDate ?? listing.filedDate,
    accepted_at: acceptanceToIso(header?.acceptanceDateTime ?? null) ?? listing.acceptedAt,
    source_url: sourceUrl,
    schema_version: doc.schemaVersion,
    no_securities_owned: doc.noSecuritiesOwned,
    not_subject_to_section16: doc.notSubjectToSection16,
    issuer: { cik: doc.issuer.cik, name: doc.issuer.name, trading_symbol: doc.issuer.tradingSymbol },
    reporting_owners: doc.reportingOwners.map(ownerOf),
    aff10b5one: doc.aff10b5One,
    rows: doc.rows.map(form4RowOf),
    footnotes: doc.footnotes.map((f) => ({ id: f.id, text: f.text })),
    rule_10b5_1_footnote_ids: doc.rule10b5_1FootnoteIds,
    remarks: doc.remarks,
    signatures: doc.ownerSignatures.map((s) => ({ name: s.name, date: s.date })),
  };
}

/**
 * Parsed document -> one form4@1 record. Pure. Key: the accession. The id hashes the key with the
 * record's data (which holds the file's content and where it was read), so reading the same
 * filing again yields the same id, and a mapper change yields a new one.
 */
export function form4RecordOf(doc: Form4Document, source: FetchedForm4Source, listing: Form4Listing, ctx: Form4MapContext): Form4RecordV1 {
  const data = form4DataOf(doc, source.url, listing);
  const record: Form4RecordV1 = {
    schema: 'form4@1',
    key: data.accession,
    id: recordId(data.accession, contentHash(stableStringify(data))),
    observed_at: source.fetchedAt,
    produced_by: FORM4_PRODUCED_BY,
    correlation_id: ctx.runId,
    origin: ctx.origin,
    provenance: {
      src_id: sourceId(source.url, source.contentHash),
      source_provider: 'sec',
      source_url: source.url,
      accession: data.accession,
      quote: quoteOf(doc, source.text),
      content_hash: source.contentHash,
      extracted_at: ctx.extractedAt,
    },
    data,
  };
  const bytes = Buffer.byteLength(JSON.stringify(record));
  if (bytes > FORM4_MAX_RECORD_BYTES) throw new Form4RecordTooLargeError(data.accession, `a record of ${bytes} bytes`);
  return record;
}
