import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  FUND_HOLDINGS_PER_RECORD,
  contentHash,
  padCik,
  type CompanyRecordV1,
  type FilingRecordV1,
  type Form4RecordV1,
  type FundHoldingsRecordV1,
  type RecordEnvelope,
} from '@app/contracts';
import {
  HoldingMatcher,
  TICKER_MAP_EXCHANGE_PATH,
  TICKER_MAP_PATH,
  nportPrimaryDocPath,
  parseForm4,
  parseNport,
  parseRecentFilings,
  parseSubmissions,
  parseTickerMap,
  parseTickerMapExchange,
  submissionsPath,
  type Form4Document,
  type RecentFiling,
  type SubmissionsCompany,
  type TickerMapEntry,
} from '@app/edgar';
// The bench makes its records exactly as the ingestors do: their mappers are pure functions.
// eslint-disable-next-line no-restricted-imports
import { companyRecordOf, type FetchedSource, type MapContext } from '../../apps/ingest-sec/src/company.mapper';
// eslint-disable-next-line no-restricted-imports
import { filingRecordFromSubmissions } from '../../apps/ingest-sec/src/filings/filing.mapper';
// eslint-disable-next-line no-restricted-imports
import { fundHeaderOf, fundHoldingOf, fundHoldingsRecordOf } from '../../apps/ingest-sec/src/nport/nport.mapper';
// eslint-disable-next-line no-restricted-imports
import { completeSubmissionPath, form4RecordOf, ownershipXmlPath } from '../../apps/ingest-form4/src/form4.mapper';

/*
 * Records for the projector bench, all made from the real fixture files by the ingestors' own
 * parsers and mappers:
 * - company@1: every ticker of the ticker map (first row per ticker, as ingest-sec keeps), with
 *   the submissions detail for the issuers whose submissions JSON is a fixture;
 * - fund-holdings@1: every holding of the fixture N-PORT filings, in chunks of 250 as ingest-sec
 *   publishes them (each filing once: a second filing of a fund replaces the first in the read
 *   model, so copies would write rows that do not stay);
 * - form4@1: the fixture Form 4s, then copies of them under distinct accessions;
 * - filing@1: every filing of the fixture submissions JSONs, then copies under distinct accessions
 *   up to the count asked for.
 * A copy changes only the accession (and what the mapper derives from it: key, id, URLs); the
 * first pass keeps the real accessions. Records are yielded in chunks, so memory stays bounded.
 */

/** When the fixtures were "fetched" and the values extracted: fixed, so a run is reproducible. */
const FETCHED_AT = '2025-08-02T12:00:00.000Z';
const CTX: MapContext = { runId: 'run_bench-projector', origin: 'backfill', extractedAt: FETCHED_AT };
const SEC_WWW = 'https://www.sec.gov';
const SEC_DATA = 'https://data.sec.gov';

/** ../shared/fixtures beside the repository when it is there, else the sample bundled in it. */
export function fixturesDir(root: string): string {
  const env = process.env.BENCH_FIXTURES;
  if (env) return resolve(env);
  const shared = resolve(root, '..', 'shared', 'fixtures');
  return existsSync(join(shared, 'tickers')) && existsSync(join(shared, 'submissions')) ? shared : join(root, 'sample', 'fixtures');
}

/**
 * Copy `n` (n >= 1) of an accession: filer id `<prefix><n / 1e6>` (no filer id starts with 98 or
 * 99: CIKs are far below that), the original's year, sequence `n % 1e6`. Distinct for distinct n.
 */
export function copiedAccession(prefix: '98' | '99', n: number, original: string): string {
  const year = original.slice(11, 13);
  return `${prefix}${String(Math.floor(n / 1_000_000)).padStart(8, '0')}-${year}-${String(n % 1_000_000).padStart(6, '0')}`;
}

/** An insider's CIK in copy round `round`: `9` + the round (4 digits) + the original's last 5 digits. */
export function copiedOwnerCik(round: number, original: string): string {
  return `9${String(round % 10_000).padStart(4, '0')}${original.slice(-5)}`;
}

function source(url: string, bytes: Buffer): FetchedSource {
  return { url, contentHash: contentHash(bytes), fetchedAt: FETCHED_AT };
}

interface Submissions {
  source: FetchedSource;
  company: SubmissionsCompany;
  filings: RecentFiling[];
}

interface Form4Base {
  doc: Form4Document;
  /** The file name as EDGAR serves it (the fixture name without its `<TICKER>-<accession>-` prefix). */
  document: string;
  isSubmissionText: boolean;
  contentHash: string;
  text: string;
}

export interface PlannedCounts {
  companies: number;
  fundHoldingsRecords: number;
  form4: number;
  filings: number;
}

/** What the generator made, to check the read model's row counts against. */
export interface GeneratedCounts {
  companies: number;
  filings: number;
  form4Filings: number;
  form4Rows: number;
  funds: number;
  fundHoldings: number;
  records: number;
}

export type TopicKey = 'companies' | 'fundHoldings' | 'form4' | 'filings';

export interface Chunk {
  topic: TopicKey;
  records: RecordEnvelope[];
}

/** The parsed fixtures, read once; records are made from them on demand. */
export class BenchRecords {
  readonly companies: CompanyRecordV1[];
  readonly fundHoldings: FundHoldingsRecordV1[];
  readonly fundHoldingRows: number;
  readonly funds: number;
  private readonly form4Bases: Form4Base[];
  private readonly filingBases: Array<{ s: Submissions; f: RecentFiling }>;
  readonly plan: PlannedCounts;

  constructor(readonly dir: string, total: number, form4Share: number) {
    const submissions = readdirSync(join(dir, 'submissions'))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f): Submissions => {
        const bytes = readFileSync(join(dir, 'submissions', f));
        const company = parseSubmissions(bytes);
        return { source: source(`${SEC_DATA}${submissionsPath(company.cik)}`, bytes), company, filings: parseRecentFilings(bytes) };
      });
    const entries = this.tickerMap();
    this.companies = this.companyRecords(entries.entries, entries.source, submissions);
    const nport = this.nportRecords(entries.entries, submissions);
    this.fundHoldings = nport.records;
    this.fundHoldingRows = nport.rows;
    this.funds = nport.funds;
    this.form4Bases = this.form4Fixtures();

    // Filings of the submissions that map to a record, each accession once (a joint filing can sit in two issuers' files).
    const seen = new Set<string>();
    this.filingBases = submissions.flatMap((s) =>
      s.filings.filter((f) => {
        if (seen.has(f.accessionNumber) || !filingRecordFromSubmissions(s.company, f, s.source, CTX)) return false;
        seen.add(f.accessionNumber);
        return true;
      }).map((f) => ({ s, f })),
    );

    // The mix: companies and holdings as the fixtures give them (fewer companies when the total is small), Form 4s as a share, filings the rest.
    const companies = Math.min(this.companies.length, Math.floor(total / 2));
    const fundHoldingsRecords = Math.min(this.fundHoldings.length, total - companies);
    const form4 = this.form4Bases.length ? Math.min(Math.round(total * form4Share), total - companies - fundHoldingsRecords) : 0;
    this.plan = { companies, fundHoldingsRecords, form4, filings: total - companies - fundHoldingsRecords - form4 };
    if (this.plan.filings < this.filingBases.length) throw new Error(`BENCH_RECORDS=${total} leaves ${this.plan.filings} filings: at least ${this.filingBases.length} (the fixture filings once) are needed`);
  }

  /** Counts the read model must end with (each key written once; the fixture N-PORT filings are each their fund's latest). */
  expected(): GeneratedCounts {
    const p = this.plan;
    let form4Rows = 0;
    for (let n = 0; n < p.form4; n += 1) form4Rows += this.form4Bases[n % this.form4Bases.length]!.doc.rows.length;
    return {
      companies: p.companies,
      filings: p.filings,
      form4Filings: p.form4,
      form4Rows,
      funds: p.fundHoldingsRecords === this.fundHoldings.length ? this.funds : -1,
      fundHoldings: p.fundHoldingsRecords === this.fundHoldings.length ? this.fundHoldingRows : -1,
      records: p.companies + p.fundHoldingsRecords + p.form4 + p.filings,
    };
  }

  /** Every record of the plan, `size` at a time, topic by topic (filings last: they are the bulk). */
  *chunks(size: number): Generator<Chunk> {
    const p = this.plan;
    for (let i = 0; i < p.companies; i += size) yield { topic: 'companies', records: this.companies.slice(i, Math.min(p.companies, i + size)) };
    for (let i = 0; i < p.fundHoldingsRecords; i += size) yield { topic: 'fundHoldings', records: this.fundHoldings.slice(i, Math.min(p.fundHoldingsRecords, i + size)) };
    for (let i = 0; i < p.form4; i += size) {
      const records: Form4RecordV1[] = [];
      for (let n = i; n < Math.min(p.form4, i + size); n += 1) records.push(this.form4Record(n));
      yield { topic: 'form4', records };
    }
    for (let i = 0; i < p.filings; i += size) {
      const records: FilingRecordV1[] = [];
      for (let n = i; n < Math.min(p.filings, i + size); n += 1) records.push(this.filingRecord(n));
      yield { topic: 'filings', records };
    }
  }

  /** Filing n: fixture filing n % B, under its own accession the first time round, a copied one after. */
  private filingRecord(n: number): FilingRecordV1 {
    const { s, f } = this.filingBases[n % this.filingBases.length]!;
    const filing = n < this.filingBases.length ? f : { ...f, accessionNumber: copiedAccession('99', n, f.accessionNumber) };
    return filingRecordFromSubmissions(s.company, filing, s.source, CTX)!;
  }

  /**
   * Form 4 n: fixture n % B, under its own accession the first time round, a copied one after (at
   * the path EDGAR would serve it). Round g > 0 also files for other insiders (owner CIKs copied
   * with g), as a real issuer's filings spread over many insiders: without it every copy of a
   * fixture would join one amendment family and one insider's history thousands of filings long,
   * which the projection recomputes whole (no real family or insider is that long).
   */
  private form4Record(n: number): Form4RecordV1 {
    const base = this.form4Bases[n % this.form4Bases.length]!;
    const round = Math.floor(n / this.form4Bases.length);
    const accession = round === 0 ? base.doc.accession! : copiedAccession('98', n, base.doc.accession!);
    const reportingOwners = round === 0 ? base.doc.reportingOwners : base.doc.reportingOwners.map((o) => ({ ...o, cik: o.cik ? copiedOwnerCik(round, o.cik) : o.cik }));
    const cik = base.doc.issuer.cik ?? '0';
    const path = base.isSubmissionText ? completeSubmissionPath(cik, accession) : ownershipXmlPath(cik, accession, base.document);
    return form4RecordOf(
      { ...base.doc, accession, reportingOwners },
      { url: `${SEC_WWW}${path}`, contentHash: base.contentHash, fetchedAt: FETCHED_AT, text: base.text },
      { filedDate: null, acceptedAt: null },
      CTX,
    );
  }

  private tickerMap(): { source: FetchedSource; entries: TickerMapEntry[] } {
    const exchange = join(this.dir, 'tickers', 'company_tickers_exchange.json');
    if (existsSync(exchange)) {
      const bytes = readFileSync(exchange);
      return { source: source(`${SEC_WWW}${TICKER_MAP_EXCHANGE_PATH}`, bytes), entries: parseTickerMapExchange(bytes) };
    }
    const bytes = readFileSync(join(this.dir, 'tickers', 'company_tickers.json'));
    return { source: source(`${SEC_WWW}${TICKER_MAP_PATH}`, bytes), entries: parseTickerMap(bytes) };
  }

  private companyRecords(entries: TickerMapEntry[], tickerMap: FetchedSource, submissions: Submissions[]): CompanyRecordV1[] {
    const byCik = new Map(submissions.map((s) => [padCik(s.company.cik), s]));
    const seen = new Set<string>();
    const out: CompanyRecordV1[] = [];
    for (const entry of entries) {
      if (seen.has(entry.ticker)) continue;
      seen.add(entry.ticker);
      const s = byCik.get(padCik(entry.cik));
      out.push(companyRecordOf(entry, tickerMap, s ? { source: s.source, company: s.company } : null, CTX));
    }
    return out;
  }

  /** Each fixture N-PORT filing, matched against the ticker map (with the LEIs the submissions fixtures give), in records of 250 holdings. */
  private nportRecords(entries: TickerMapEntry[], submissions: Submissions[]): { records: FundHoldingsRecordV1[]; rows: number; funds: number } {
    const leis = new Map(submissions.map((s) => [padCik(s.company.cik), s.company.lei]));
    const matcher = new HoldingMatcher(entries.map((e) => ({ cik: e.cik, ticker: e.ticker, name: e.name, lei: leis.get(padCik(e.cik)) ?? null })));
    const tickerByCik = new Map<string, string>();
    for (const e of entries) if (!tickerByCik.has(e.cik)) tickerByCik.set(e.cik, e.ticker);
    const records: FundHoldingsRecordV1[] = [];
    let rows = 0;
    const funds = new Set<string>();
    const dir = join(this.dir, 'nport');
    for (const file of existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.xml')).sort() : []) {
      const bytes = readFileSync(join(dir, file));
      const { fund, holdings } = parseNport(bytes);
      const header = fundHeaderOf(fund, fund.registrantCik ? (tickerByCik.get(padCik(fund.registrantCik)) ?? null) : null);
      // The fixtures do not carry their accession: `<registrant cik>-<yy>-990001`, as the repository's tests name them.
      const accession = `${header.registrant_cik}-${header.report_date.slice(2, 4)}-990001`;
      const src = source(`${SEC_WWW}${nportPrimaryDocPath(header.registrant_cik, accession)}`, bytes);
      const mapped = holdings.map((h) => fundHoldingOf(h, matcher.match(h)));
      const count = Math.max(1, Math.ceil(mapped.length / FUND_HOLDINGS_PER_RECORD));
      for (let i = 0; i < count; i += 1) {
        const chunk = mapped.slice(i * FUND_HOLDINGS_PER_RECORD, (i + 1) * FUND_HOLDINGS_PER_RECORD);
        records.push(fundHoldingsRecordOf({ accession, fund: header, index: i, count, holdingsTotal: mapped.length, holdings: chunk }, src, CTX));
      }
      rows += mapped.length;
      funds.add(header.key);
    }
    return { records, rows, funds: funds.size };
  }

  private form4Fixtures(): Form4Base[] {
    const dir = join(this.dir, 'form4');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((f) => /\.(xml|txt)$/i.test(f))
      .sort()
      .map((file) => {
        const bytes = readFileSync(join(dir, file));
        const named = /(\d{10}-\d{2}-\d{6})/.exec(file)?.[1];
        let doc = parseForm4(bytes, named ? { accession: named } : {});
        if (!doc.accession) {
          // No accession in the file nor its name: `<issuer cik>-<yy>-990001`, as the repository's tests name them.
          const year = (doc.periodOfReport ?? '2000').slice(2, 4);
          doc = parseForm4(bytes, { accession: `${padCik(doc.issuer.cik ?? '0')}-${year}-990001` });
        }
        return {
          doc,
          document: file.replace(/^[A-Z]+-(\d{10}-\d{2}-\d{6}-?)?/, ''),
          isSubmissionText: doc.submissionHeader !== null,
          contentHash: contentHash(bytes),
          text: bytes.toString('utf8'),
        };
      });
  }
}
