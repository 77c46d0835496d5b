import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { companyRecordV1, contentHash, recordId, sourceId, stableStringify, type CompanyData, type CompanyRecordV1 } from '@app/contracts';
import { parseTickerMapExchange } from '@app/edgar';
import { createDataSource, projectRecords, runMigrations } from '@app/persistence';

const TICKER_MAP_URL = 'https://www.sec.gov/files/company_tickers_exchange.json';

/** A throwaway database on the server of `baseUrl`; `drop()` is idempotent. */
export interface ScratchDb {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export async function createScratchDb(baseUrl: string, name: string): Promise<ScratchDb> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  await admin(baseUrl, `CREATE DATABASE ${name}`);
  let dropped = false;
  return {
    name,
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await admin(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function admin(baseUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: baseUrl, application_name: 'bench-admin' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function migrate(url: string): Promise<string[]> {
  return runMigrations({ url, applicationName: 'bench-migrate' });
}

/**
 * company@1 records made from the real ticker map, shaped like the ingestor's
 * (libs/contracts/src/examples/company@1.brk-b.json), validated against the schema.
 */
export function tickerMapRecords(path: string, observedAt: string): CompanyRecordV1[] {
  const bytes = readFileSync(path);
  const hash = contentHash(bytes);
  return parseTickerMapExchange(bytes).map((entry) => {
    const key = `${entry.ticker}:US`;
    const data: CompanyData = {
      cik: entry.cik,
      ticker: entry.ticker,
      market: 'US',
      name: entry.name,
      listing_exchange: entry.exchange,
      reference_source: { source_url: TICKER_MAP_URL, content_hash: hash },
      detail: null,
    };
    return companyRecordV1.parse({
      schema: 'company@1',
      key,
      id: recordId(key, contentHash(stableStringify(data))),
      observed_at: observedAt,
      produced_by: 'bench',
      correlation_id: 'run_bench-api-companies',
      provenance: {
        src_id: sourceId(TICKER_MAP_URL, hash),
        source_provider: 'sec',
        source_url: TICKER_MAP_URL,
        accession: null,
        quote: entry.quote,
        content_hash: hash,
        extracted_at: observedAt,
      },
      data,
    });
  });
}

/** Projects every record with the projector's batch projection (500 a batch); returns the outcome counts and the row count. */
export async function loadCompanies(url: string, records: CompanyRecordV1[]): Promise<{ outcomes: { inserted: number; updated: number; unchanged: number }; rows: number }> {
  const ds = createDataSource({ url, poolSize: 2, applicationName: 'bench-load' });
  await ds.initialize();
  try {
    const outcomes = { inserted: 0, updated: 0, unchanged: 0 };
    for (let i = 0; i < records.length; i += 500) {
      const outcome = await projectRecords(ds, records.slice(i, i + 500));
      outcomes.inserted += outcome.inserted.length;
      outcomes.updated += outcome.updated.length;
      outcomes.unchanged += outcome.unchanged;
    }
    await ds.query('ANALYZE companies');
    const [count] = await ds.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM companies WHERE status = 'active'`);
    return { outcomes, rows: count?.n ?? 0 };
  } finally {
    await ds.destroy();
  }
}
