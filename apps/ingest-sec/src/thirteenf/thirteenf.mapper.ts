import {
  contentHash,
  padCik,
  recordId,
  sourceId,
  stableStringify,
  THIRTEENF_FORMS,
  THIRTEENF_HOLDINGS_PER_RECORD,
  type ThirteenFHoldingData,
  type ThirteenFHoldingsData,
  type RecordOrigin,
  type ThirteenFHoldingsRecordV1,
  quarterOf,
} from '@app/contracts';
import { type ParsedThirteenF, type ThirteenFHolding, type ThirteenFManagerRef } from '@app/edgar';
import { PRODUCED_BY } from '../company.mapper';

/**
 * Where a parsed 13F came from: what was fetched (the complete submission .txt, or a data-set zip
 * for the bulk loader), when, by which run, and the filing facts the index knows (which win over
 * what the container's header says: a data set has no header).
 */
export interface ThirteenFSource {
  accession: string;
  /** The document fetched. */
  url: string;
  /** contentHash of the fetched bytes. */
  contentHash: string;
  /** When the source was fetched: the records' observed_at. */
  fetchedAt: string;
  /** The ingestion run: the records' correlation_id. */
  runId: string;
  /** Live discovery or history: the records' origin. */
  origin: RecordOrigin;
  /** When the values were extracted (ISO). */
  extractedAt: string;
  /** The form as EDGAR lists it; the primary document's submissionType when not given. */
  form?: string | null;
  /** YYYY-MM-DD; the container header's FILED AS OF DATE when not given. */
  filedDate?: string | null;
  acceptedAt?: string | null;
}

type ThirteenFForm = (typeof THIRTEENF_FORMS)[number];

function thirteenFFormOf(form: string | null | undefined): ThirteenFForm {
  const normal = form?.trim().toUpperCase() ?? '';
  const known = THIRTEENF_FORMS.find((f) => f === normal);
  if (!known) throw new RangeError(`not a 13F form: ${JSON.stringify(form ?? null)}`);
  return known;
}

function managerRefOf(m: ThirteenFManagerRef): ThirteenFHoldingsData['other_managers'][number] {
  // A CIK as filed can be blank or zeros in an included-managers list: no CIK then, not a made-up one.
  const cik = m.cik && /^\d{1,10}$/.test(m.cik.trim()) && Number(m.cik) > 0 ? padCik(m.cik.trim()) : null;
  return { sequence: m.sequence, cik, name: m.name, file_number: m.fileNumber };
}

function holdingOf(h: ThirteenFHolding, factor: number): ThirteenFHoldingData {
  return {
    index: h.index,
    issuer: h.issuer,
    class_title: h.classTitle,
    cusip: h.cusip.toUpperCase(),
    figi: h.figi,
    value_filed: h.valueFiled,
    value_usd: h.valueFiled * factor,
    shares: h.shares,
    share_type: h.shareType,
    put_call: h.putCall,
    discretion: h.discretion,
    other_managers: h.otherManagers,
    voting: { sole: h.votingSole, shared: h.votingShared, none: h.votingNone },
    quote: h.quote,
  };
}

/**
 * One parsed 13F filing -> its 13f-holdings@1 records: the header repeated on each, the holdings
 * in chunks of THIRTEENF_HOLDINGS_PER_RECORD (a notice, with none, is one record). Pure; the
 * follower and the bulk loader both map through here. Key: the accession (all chunks share a
 * partition). Provenance: the fetched source with its hash; the quote is the chunk's first
 * infoTable element (each holding carries its own). Throws RangeError when the filing lacks what
 * every record needs (a 13F form, the manager's CIK, the period, the filing date).
 */
export function thirteenFHoldingsRecords(parsed: ParsedThirteenF, source: ThirteenFSource): ThirteenFHoldingsRecordV1[] {
  const { primary } = parsed;
  const form = thirteenFFormOf(source.form ?? primary.form);
  if (!primary.managerCik) throw new RangeError(`13F ${source.accession}: no filer CIK in the primary document`);
  if (!primary.period) throw new RangeError(`13F ${source.accession}: no period of report`);
  const filedDate = source.filedDate ?? parsed.filedDate;
  if (!filedDate) throw new RangeError(`13F ${source.accession}: no filing date`);
  const notice = form.startsWith('13F-NT');
  const header: Omit<ThirteenFHoldingsData, 'chunk' | 'holdings'> = {
    accession: source.accession,
    source_url: source.url,
    form,
    filed_date: filedDate,
    accepted_at: source.acceptedAt ?? parsed.acceptedAt,
    manager: {
      cik: padCik(primary.managerCik),
      name: primary.managerName,
      file_number: primary.fileNumber,
      crd_number: primary.crdNumber,
      sec_file_number: primary.secFileNumber,
    },
    period: primary.period,
    quarter: quarterOf(primary.period),
    report_type: primary.reportType ?? (notice ? 'notice' : 'holdings'),
    amendment: primary.isAmendment || form.endsWith('/A') ? { number: primary.amendmentNumber, type: primary.amendmentType } : null,
    other_managers: primary.otherManagers.map(managerRefOf),
    included_managers: primary.includedManagers.map(managerRefOf),
    summary: { entry_total: primary.tableEntryTotal, value_total: primary.tableValueTotal },
    value_unit: { unit: parsed.valueUnit.unit, basis: parsed.valueUnit.basis, flag: parsed.valueUnit.flag },
  };
  const holdings = parsed.holdings.map((h) => holdingOf(h, parsed.valueUnit.factor));
  const count = Math.max(1, Math.ceil(holdings.length / THIRTEENF_HOLDINGS_PER_RECORD));
  return Array.from({ length: count }, (_, index) => {
    const chunk = holdings.slice(index * THIRTEENF_HOLDINGS_PER_RECORD, (index + 1) * THIRTEENF_HOLDINGS_PER_RECORD);
    const data: ThirteenFHoldingsData = { ...header, chunk: { index, count, holdings_total: holdings.length }, holdings: chunk };
    return {
      schema: '13f-holdings@1',
      key: source.accession,
      id: recordId(`${source.accession}/${index}`, contentHash(stableStringify(data))),
      observed_at: source.fetchedAt,
      produced_by: PRODUCED_BY,
      correlation_id: source.runId,
      origin: source.origin,
      provenance: {
        src_id: sourceId(source.url, source.contentHash),
        source_provider: 'sec',
        source_url: source.url,
        accession: source.accession,
        quote: chunk[0]?.quote ?? null,
        content_hash: source.contentHash,
        extracted_at: source.extractedAt,
      },
      data,
    };
  });
}
