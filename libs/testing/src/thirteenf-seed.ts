import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  contentHash,
  padCik,
  quarterOf,
  recordId,
  sourceId,
  stableStringify,
  thirteenFHoldingsRecordV1,
  type RecordEnvelope,
  type ThirteenFHoldingData,
  type ThirteenFHoldingsData,
} from '@app/contracts';
import { parseThirteenFSubmission } from '@app/edgar';
import { defaultFixturesDir } from './fixture-server';

/*
 * 13f-holdings@1 records for tests of the 13F read side, to be projected by the real projection
 * (projectRecords / projectThirteenFHoldings): never read-model rows written by hand. The records
 * come from real filings: ACTIAM's 2020Q4 example record, and LTSONE's 2023Q3 complete submission
 * parsed by parseThirteenFSubmission. A scenario that needs more (another quarter, many managers)
 * derives it from one of them with deriveThirteenF, the transformation stated where it is made.
 */

export type ThirteenFRecord = RecordEnvelope<ThirteenFHoldingsData>;

const EXAMPLES = resolve(__dirname, '../../contracts/src/examples');

/** ACTIAM N.V., 2020Q4, values in thousands: AAPL, GOOG, GOOGL, MSFT, AMZN (the contracts' example record). */
export function actiam2020Q4(): ThirteenFRecord {
  return thirteenFHoldingsRecordV1.parse(JSON.parse(readFileSync(join(EXAMPLES, '13f-holdings@1.actiam-2020q4.json'), 'utf8')));
}

/**
 * A fixture 13F complete submission (../shared/fixtures/13f) as the follower publishes it: parsed
 * by parseThirteenFSubmission, then one record per chunk of THIRTEENF_HOLDINGS_PER_RECORD
 * (the fixtures hold fewer, so one), header fields as the parser read them.
 */
export function thirteenFFixtureRecord(file: string): ThirteenFRecord {
  const bytes = readFileSync(join(defaultFixturesDir(), '13f', file));
  const parsed = parseThirteenFSubmission(bytes.toString('utf8'));
  const { primary } = parsed;
  if (!parsed.accession || !primary.managerCik || !primary.period || !parsed.filedDate || !primary.form) throw new Error(`${file}: not a complete 13F submission`);
  const hash = contentHash(bytes);
  const url = `https://www.sec.gov/Archives/edgar/data/${Number(primary.managerCik)}/${parsed.accession.replace(/-/g, '')}/${parsed.accession}.txt`;
  const ref = (m: (typeof primary.otherManagers)[number]) => ({ sequence: m.sequence, cik: m.cik ? padCik(m.cik) : null, name: m.name, file_number: m.fileNumber });
  const holdings: ThirteenFHoldingData[] = parsed.holdings.map((h) => ({
    index: h.index,
    issuer: h.issuer,
    class_title: h.classTitle,
    cusip: h.cusip.toUpperCase(),
    figi: h.figi,
    value_filed: h.valueFiled,
    value_usd: h.valueFiled * parsed.valueUnit.factor,
    shares: h.shares,
    share_type: h.shareType,
    put_call: h.putCall,
    discretion: h.discretion,
    other_managers: h.otherManagers,
    voting: { sole: h.votingSole, shared: h.votingShared, none: h.votingNone },
    quote: h.quote,
  }));
  const data: ThirteenFHoldingsData = {
    accession: parsed.accession,
    source_url: url,
    form: primary.form as ThirteenFHoldingsData['form'],
    filed_date: parsed.filedDate,
    accepted_at: parsed.acceptedAt,
    manager: { cik: padCik(primary.managerCik), name: primary.managerName, file_number: primary.fileNumber, crd_number: primary.crdNumber, sec_file_number: primary.secFileNumber },
    period: primary.period,
    quarter: quarterOf(primary.period),
    report_type: primary.reportType ?? 'holdings',
    amendment: primary.isAmendment ? { number: primary.amendmentNumber, type: primary.amendmentType } : null,
    other_managers: primary.otherManagers.map(ref),
    included_managers: primary.includedManagers.map(ref),
    summary: { entry_total: primary.tableEntryTotal, value_total: primary.tableValueTotal },
    value_unit: { unit: parsed.valueUnit.unit, basis: parsed.valueUnit.basis, flag: parsed.valueUnit.flag },
    chunk: { index: 0, count: 1, holdings_total: holdings.length },
    holdings,
  };
  return thirteenFHoldingsRecordV1.parse({
    schema: '13f-holdings@1',
    key: data.accession,
    id: recordId(`${data.accession}/0`, contentHash(stableStringify(data))),
    observed_at: '2025-08-02T12:00:00.000Z',
    produced_by: 'ingest-sec',
    correlation_id: 'run_thirteenf-seed',
    provenance: {
      src_id: sourceId(url, hash),
      source_provider: 'sec',
      source_url: url,
      accession: data.accession,
      quote: holdings[0]?.quote ?? null,
      content_hash: hash,
      extracted_at: '2025-08-02T12:00:01.000Z',
    },
    data,
  });
}

/** LTS One Management LP, 2023Q3, values in dollars: 14 rows, MSFT among them (parsed from the fixture .txt). */
export function ltsone2023Q3(): ThirteenFRecord {
  return thirteenFFixtureRecord('LTSONE-0001894188-23-000007.txt');
}

/** One infoTable row of a record by CUSIP (throws when the filing has none). */
export function holdingOf(record: ThirteenFRecord, cusip: string): ThirteenFHoldingData {
  const h = record.data.holdings.find((x) => x.cusip === cusip);
  if (!h) throw new Error(`${record.data.accession} holds no ${cusip}`);
  return h;
}

/**
 * Another filing made from a real record: the stated header changes (accession, manager, period,
 * dates, ...) and rows (re-indexed in the order given; each keeps its quote as filed), one chunk.
 * The period's quarter follows the period; unless given, the summary is the rows' count and value
 * sum (options included, as tableValueTotal is). Checked against the contract, as a published
 * record is.
 */
export function deriveThirteenF(base: ThirteenFRecord, changes: Partial<ThirteenFHoldingsData> & { accession: string }, holdings: ThirteenFHoldingData[]): ThirteenFRecord {
  const data: ThirteenFHoldingsData = {
    ...base.data,
    ...changes,
    quarter: quarterOf(changes.period ?? base.data.period),
    summary: changes.summary ?? { entry_total: holdings.length, value_total: holdings.reduce((s, h) => s + h.value_filed, 0) },
    chunk: { index: 0, count: 1, holdings_total: holdings.length },
    holdings: holdings.map((h, index) => ({ ...h, index })),
  };
  return thirteenFHoldingsRecordV1.parse({
    ...base,
    key: data.accession,
    id: recordId(`${data.accession}/0`, contentHash(stableStringify(data))),
    provenance: { ...base.provenance, accession: data.accession, quote: data.holdings[0]?.quote ?? null },
    data,
  });
}

/** A dollars row with its shares (and, at the same price, its value) set to `shares`; `valueFiled` overrides the value. */
export function withShares(h: ThirteenFHoldingData, shares: number, valueFiled = Math.round((h.value_filed * shares) / h.shares)): ThirteenFHoldingData {
  return { ...h, shares, value_filed: valueFiled, value_usd: valueFiled, voting: { sole: shares, shared: 0, none: 0 } };
}

/** The cusip_crosswalk row the N-PORT projection would write for a fund holding matched by CUSIP (tests of the 13F read side only). */
export async function seedCrosswalk(db: { query(sql: string, params?: unknown[]): Promise<unknown> }, cusip: string, cik: string, symbol: string | null): Promise<void> {
  await db.query(`INSERT INTO cusip_crosswalk (cusip, cik, symbol, method, accession, holding_index) VALUES ($1, $2, $3, 'cusip', '0000002230-23-990001', 0)`, [cusip, cik, symbol]);
}

export const LTSONE_CUSIPS = { microsoft: '594918104', amazon: '023135106', sherwin: '824348106', visa: '92826C839' } as const;
/** Tesla's CUSIP: a row re-keyed to it is a position LTSONE's 2023Q3 did not hold. */
export const TESLA = '88160R101';
export const LTSONE_2023Q4_ACCESSION = '0001894188-24-990001';

/**
 * LTSONE's 2023Q4, derived from its real 2023Q3 record: Microsoft's row with 80,000 shares valued
 * $30,000,000 (+15,000), Amazon's row as filed (unchanged), and a new position: Amazon's row
 * re-keyed to Tesla's CUSIP with 1,000 shares valued $2,521,000 (so the quarter totals
 * $50,000,000) plus a call row on it (500 shares, $120,000). The other twelve rows are not filed
 * again: the projection serves them as sold_out.
 */
export function ltsone2023Q4(q3: ThirteenFRecord = ltsone2023Q3()): ThirteenFRecord {
  const amazon = holdingOf(q3, LTSONE_CUSIPS.amazon);
  const tesla = { ...withShares(amazon, 1_000, 2_521_000), issuer: 'TESLA INC', cusip: TESLA };
  return deriveThirteenF(q3, { accession: LTSONE_2023Q4_ACCESSION, period: '2023-12-31', filed_date: '2024-02-14', accepted_at: null }, [
    withShares(holdingOf(q3, LTSONE_CUSIPS.microsoft), 80_000, 30_000_000),
    amazon,
    tesla,
    { ...withShares(tesla, 500, 120_000), put_call: 'call' },
  ]);
}

/**
 * `count` managers derived from LTSONE's real 2023Q3 record, for paging and plan tests. Manager g
 * (1..count) has CIK 10000 + g and the name `DERIVED FILER g`; its 2023Q3 filing holds Microsoft's
 * row with 100 x (g mod 500) shares valued $1,000 x floor(g / 7) (ties every 7), Amazon's and
 * Visa's rows as filed. When g mod 5 > 0 it also filed 2023Q2 with Amazon's row alone, so its
 * Microsoft position is `new` (share delta = its shares); the others have no previous quarter
 * (change unknown).
 */
export function derivedManagers(count: number, q3: ThirteenFRecord = ltsone2023Q3()): ThirteenFRecord[] {
  const [microsoft, amazon, visa] = [LTSONE_CUSIPS.microsoft, LTSONE_CUSIPS.amazon, LTSONE_CUSIPS.visa].map((c) => holdingOf(q3, c)) as [ThirteenFHoldingData, ThirteenFHoldingData, ThirteenFHoldingData];
  const records: ThirteenFRecord[] = [];
  for (let g = 1; g <= count; g++) {
    const cik = padCik(10_000 + g);
    const manager = { ...q3.data.manager, cik, name: `DERIVED FILER ${g}`, file_number: null, crd_number: null, sec_file_number: null };
    records.push(
      deriveThirteenF(q3, { accession: `${cik}-23-000003`, manager }, [{ ...withShares(microsoft, 100 * (g % 500), 1000 * Math.floor(g / 7)) }, amazon, visa]),
    );
    if (g % 5 > 0) records.push(deriveThirteenF(q3, { accession: `${cik}-23-000002`, manager, period: '2023-06-30', filed_date: '2023-08-14', accepted_at: null }, [amazon]));
  }
  return records;
}
