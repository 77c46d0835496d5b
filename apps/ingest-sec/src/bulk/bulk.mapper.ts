import type { CompanyRecordV1, FilingRecordV1 } from '@app/contracts';
import { parseSubmissionsFile, parseSubmissionsOverflow, type RecentFiling, type SubmissionsCompany } from '@app/edgar';
import { companyRecordOf, type FetchedSource, type MapContext } from '../company.mapper';
import { filingRecordFromSubmissions } from '../filings/filing.mapper';

export interface EntityRecords {
  filings: FilingRecordV1[];
  companies: CompanyRecordV1[];
  /** Rows of the file without a form or a filing date (no filing@1 can be made of them). */
  skipped: number;
}

/** The data.sec.gov URL of an entity file: the archive packs the very files the submissions API serves. */
export function entityFileUrl(dataBaseUrl: string, entryName: string): string {
  return `${dataBaseUrl.replace(/\/+$/, '')}/submissions/${entryName.slice(entryName.lastIndexOf('/') + 1)}`;
}

function filingRecords(company: { cik: string; name: string }, rows: RecentFiling[], source: FetchedSource, ctx: MapContext): { filings: FilingRecordV1[]; skipped: number } {
  const filings: FilingRecordV1[] = [];
  let skipped = 0;
  for (const row of rows) {
    const record = filingRecordFromSubmissions(company, row, source, ctx);
    if (record) filings.push(record);
    else skipped += 1;
  }
  return { filings, skipped };
}

/**
 * company@1 records of a main file, one per ticker SEC lists in its `tickers`/`exchanges`: the
 * file itself stands in for the ticker map row (same CIK, ticker and exchange, the SEC name).
 * Entities without a ticker (most of the archive: funds, individuals, private issuers) have no
 * company@1 key, so they get none; their filings are published all the same. Pure.
 */
export function bulkCompanyRecords(company: SubmissionsCompany, source: FetchedSource, ctx: MapContext): CompanyRecordV1[] {
  const seen = new Set<string>();
  const records: CompanyRecordV1[] = [];
  company.tickers.forEach((ticker, i) => {
    const symbol = ticker.toUpperCase();
    if (seen.has(symbol)) return;
    seen.add(symbol);
    const entry = { cik: company.cik, ticker: symbol, name: company.name, exchange: company.exchanges[i] ?? null, quote: company.nameQuote };
    records.push(companyRecordOf(entry, source, { source, company }, ctx));
  });
  return records;
}

/** A main entity file -> its company, company@1 records and the filing@1 records of `filings.recent`. Pure. */
export function mainEntityRecords(text: string, source: FetchedSource, ctx: MapContext): EntityRecords & { company: SubmissionsCompany } {
  // The file is parsed once: JSON.parse of an entity file is a good part of the backfill's CPU.
  const { company, recent } = parseSubmissionsFile(text);
  const { filings, skipped } = filingRecords(company, recent, source, ctx);
  return { company, filings, companies: bulkCompanyRecords(company, source, ctx), skipped };
}

/**
 * An overflow file (top level: the filing columns) -> filing@1 records of the CIK its name gives,
 * under the company name of that CIK's main file. Pure; EdgarParseError when it is no such file.
 */
export function overflowEntityRecords(text: string, company: { cik: string; name: string }, source: FetchedSource, ctx: MapContext): EntityRecords {
  return { ...filingRecords(company, parseSubmissionsOverflow(text), source, ctx), companies: [] };
}
