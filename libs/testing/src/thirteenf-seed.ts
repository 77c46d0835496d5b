import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from './fixture-server';

/*
 * 13F read-model rows for tests of the read side, written with SQL into the agreed tables the way
 * the projection fills them: real infoTable rows of ../shared/fixtures/13f (each quote the element
 * as filed), plus rows the tests name as synthetic where a scenario needs more than the fixtures hold.
 */

export interface SeedQuery {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** One infoTable row of a fixture filing, as filed. */
export interface FixtureHolding {
  index: number;
  issuer: string;
  classTitle: string;
  cusip: string;
  value: number;
  shares: number;
  quote: string;
}

/** A real 13F filing from the fixtures, with the header facts its SGML header and cover page state. */
export interface FixtureFiling {
  file: string;
  accession: string;
  managerCik: string;
  managerName: string;
  period: string;
  filedDate: string;
  unit: 'thousands' | 'dollars';
  valueTotal: number;
  holdings: FixtureHolding[];
}

const tag = (block: string, name: string): string => new RegExp(`<ns1:${name}>([^<]*)</ns1:${name}>`).exec(block)?.[1] ?? '';

/** The infoTable elements of a complete-submission .txt with the ns1: prefix (ACTIAM, LTSONE). */
function infoTables(file: string): FixtureHolding[] {
  const text = readFileSync(join(defaultFixturesDir(), '13f', file), 'utf8');
  return [...text.matchAll(/<ns1:infoTable>[\s\S]*?<\/ns1:infoTable>/g)].map((m, index) => ({
    index,
    issuer: tag(m[0], 'nameOfIssuer'),
    classTitle: tag(m[0], 'titleOfClass'),
    cusip: tag(m[0], 'cusip'),
    value: Number(tag(m[0], 'value')),
    shares: Number(tag(m[0], 'sshPrnamt')),
    quote: m[0],
  }));
}

/** ACTIAM N.V., 2020Q4, values in thousands (filed before 2023-01-03): AAPL, GOOG, GOOGL, MSFT, AMZN. */
export const ACTIAM_2020Q4: FixtureFiling = {
  file: 'ACTIAM-0001619124-21-000002.txt',
  accession: '0001619124-21-000002',
  managerCik: '0001619124',
  managerName: 'ACTIAM N.V.',
  period: '2020-12-31',
  filedDate: '2021-02-12',
  unit: 'thousands',
  valueTotal: 732158,
  holdings: infoTables('ACTIAM-0001619124-21-000002.txt'),
};

/** LTS One Management LP, 2023Q3, values in dollars: 14 rows, MSFT among them. */
export const LTSONE_2023Q3: FixtureFiling = {
  file: 'LTSONE-0001894188-23-000007.txt',
  accession: '0001894188-23-000007',
  managerCik: '0001894188',
  managerName: 'LTS One Management LP',
  period: '2023-09-30',
  filedDate: '2023-11-14',
  unit: 'dollars',
  valueTotal: 454926000,
  holdings: infoTables('LTSONE-0001894188-23-000007.txt'),
};

export const archivesTxtUrl = (cik: string, accession: string) => `https://www.sec.gov/Archives/edgar/data/${Number(cik)}/${accession.replace(/-/g, '')}/${accession}.txt`;

/** A position row to write; change columns as the projection computes them. */
export interface SeedPosition {
  managerCik: string;
  period: string;
  cusip: string;
  cik: string | null;
  issuer: string;
  classTitle: string | null;
  shares: number;
  valueUsd: number;
  prevShares: number | null;
  shareDelta: number | null;
  change: string | null;
  accession: string;
  holdingIndex: number;
  put?: { shares: number; valueUsd: number };
  call?: { shares: number; valueUsd: number };
}

/** thirteenf_filings + thirteenf_holdings + the manager rows of one filing (its positions are written apart). */
export async function seedThirteenFFiling(db: SeedQuery, f: FixtureFiling, over: { superseded_by?: string; form?: string; amendmentType?: string | null } = {}): Promise<void> {
  const scale = f.unit === 'thousands' ? 1000 : 1;
  const provenance = {
    src_id: `src_sec_13f_${f.accession.replace(/-/g, '')}`,
    source_provider: 'sec',
    source_url: archivesTxtUrl(f.managerCik, f.accession),
    accession: f.accession,
    quote: null,
    content_hash: `sha256:${'0'.repeat(64)}`,
    extracted_at: '2025-01-01T00:00:00Z',
  };
  await db.query(
    `INSERT INTO thirteenf_filings (accession, manager_cik, manager_name, form, report_type, amendment_number, amendment_type, period, filed_date,
       other_managers, included_managers, entry_total, value_total, value_unit, unit_basis, holdings_total, chunks_seen, chunk_count, chunk_hashes, superseded_by,
       source_url, provenance, record_id)
     VALUES ($1, $2, $3, $4, 'holdings', NULL, $5, $6, $7, '[]', '[]', $8, $9, $10, 'filing_date', $8, 1, 1, ARRAY['seeded'], $11, $12, $13, $14)`,
    [f.accession, f.managerCik, f.managerName, over.form ?? '13F-HR', over.amendmentType ?? null, f.period, f.filedDate, f.holdings.length, f.valueTotal, f.unit,
      over.superseded_by ?? null, provenance.source_url, JSON.stringify(provenance), `rec_${f.accession.replace(/-/g, '')}`],
  );
  for (const h of f.holdings) {
    await db.query(
      `INSERT INTO thirteenf_holdings (accession, holding_index, cusip, issuer, class_title, figi, value_filed, value_usd, shares, share_type, put_call, discretion,
         other_managers, voting_sole, voting_shared, voting_none, quote)
       VALUES ($1, $2, $3, $4, $5, NULL, $6, $7, $8, 'SH', NULL, 'SOLE', '{}', $8, 0, 0, $9)`,
      [f.accession, h.index, h.cusip, h.issuer, h.classTitle, h.value, h.value * scale, h.shares, h.quote],
    );
  }
  await seedManagerQuarter(db, { managerCik: f.managerCik, managerName: f.managerName, period: f.period, accessions: [f.accession], positions: f.holdings.length, valueUsdTotal: f.valueTotal * scale });
}

export async function seedManagerQuarter(db: SeedQuery, q: { managerCik: string; managerName: string; period: string; accessions: string[]; positions: number; valueUsdTotal: number }): Promise<void> {
  await db.query(
    `INSERT INTO institutional_manager_quarters (manager_cik, period, manager_name, report_type, accessions, other_managers, positions, value_usd_total)
     VALUES ($1, $2, $3, 'holdings', $4, '[]', $5, $6)`,
    [q.managerCik, q.period, q.managerName, q.accessions, q.positions, q.valueUsdTotal],
  );
  await db.query(
    `INSERT INTO institutional_managers (cik, name, file_number, latest_period) VALUES ($1, $2, NULL, $3)
     ON CONFLICT (cik) DO UPDATE SET latest_period = greatest(institutional_managers.latest_period, excluded.latest_period), name = excluded.name`,
    [q.managerCik, q.managerName, q.period],
  );
}

/** The positions of a fixture filing as the projection serves them: one per CUSIP, `cikOf` the crosswalk's match. */
export function positionsOf(f: FixtureFiling, cikOf: (cusip: string) => string | null, prev: (cusip: string) => number | null = () => null): SeedPosition[] {
  const scale = f.unit === 'thousands' ? 1000 : 1;
  return f.holdings.map((h) => {
    const p = prev(h.cusip);
    const delta = p === null ? null : h.shares - p;
    return {
      managerCik: f.managerCik,
      period: f.period,
      cusip: h.cusip,
      cik: cikOf(h.cusip),
      issuer: h.issuer,
      classTitle: h.classTitle,
      shares: h.shares,
      valueUsd: h.value * scale,
      prevShares: p,
      shareDelta: delta,
      change: p === null ? null : delta! > 0 ? 'increased' : delta! < 0 ? 'decreased' : 'unchanged',
      accession: f.accession,
      holdingIndex: h.index,
    };
  });
}

export async function seedPositions(db: SeedQuery, rows: SeedPosition[]): Promise<void> {
  for (const r of rows) {
    await db.query(
      `INSERT INTO institutional_positions (manager_cik, period, cusip, cik, match_method, issuer, class_title, shares, principal, value_usd,
         put_shares, put_value_usd, call_shares, call_value_usd, prev_shares, share_delta, change, accession, holding_index)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [r.managerCik, r.period, r.cusip, r.cik, r.cik ? 'crosswalk' : null, r.issuer, r.classTitle, r.shares, r.valueUsd, r.put?.shares ?? 0, r.put?.valueUsd ?? 0,
        r.call?.shares ?? 0, r.call?.valueUsd ?? 0, r.prevShares, r.shareDelta, r.change, r.accession, r.holdingIndex],
    );
  }
}

export async function seedCrosswalk(db: SeedQuery, cusip: string, cik: string, symbol: string): Promise<void> {
  await db.query(`INSERT INTO cusip_crosswalk (cusip, cik, symbol, method, accession, holding_index) VALUES ($1, $2, $3, 'nport_cusip', '0000002230-23-990001', 0)`, [cusip, cik, symbol]);
}
