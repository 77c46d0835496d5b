import Fastify from 'fastify';
import {
  CompaniesRepository,
  FilingsRepository,
  FundExposureRepository,
  InsiderTransactionsRepository,
  SEARCH_KINDS,
  SearchRepository,
  createDataSource,
  type Page,
  type SearchAfter,
} from '@app/persistence';
import { listenUntilSignal, runRawServer } from '../bench-support';

/**
 * Baseline of the scale bench: bare Fastify + the api's pg pool running the very same repository
 * statements the api runs for each list's defaults (symbol lookup, list with limit + 1, the fund
 * count beside the exposure list), and nothing else: no auth, rate limit, validation, cursor
 * codec, mapping or request log. A deep page is asked with `?after=<JSON keyset>` directly.
 * Env: DATABASE_URL, PORT, DATABASE_POOL_SIZE.
 */
async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  const dataSource = createDataSource({ url, poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 10), applicationName: 'bench-scale-raw' });
  await dataSource.initialize();
  const companies = new CompaniesRepository(dataSource);
  const filings = new FilingsRepository(dataSource);
  const insiders = new InsiderTransactionsRepository(dataSource);
  const exposure = new FundExposureRepository(dataSource);
  const search = new SearchRepository(dataSource);

  interface Q {
    limit?: string;
    after?: string;
    q?: string;
  }
  const limitOf = (q: Q): number => Number(q.limit ?? 50) || 50;
  // The keyset is the bench's own input: parsed, not validated.
  const afterOf = <T>(q: Q): T | undefined => (q.after ? (JSON.parse(q.after) as T) : undefined);
  const pageBody = <T>(p: Page<T>) => ({ data: p.rows, pagination: { next_cursor: null, has_more: p.hasMore } });
  const cikOf = async (symbol: string): Promise<string> => {
    const company = await companies.findBySymbol(symbol.toUpperCase());
    if (!company) throw new Error(`unknown symbol ${symbol}`);
    return company.cik;
  };

  const server = Fastify({ logger: false });
  server.get('/healthz', async () => ({ status: 'ok' }));
  server.get('/v1/filings', async (request) => {
    const q = request.query as Q;
    const limit = limitOf(q);
    return pageBody(await filings.list({}, { direction: 'desc', limit, after: afterOf(q) }));
  });
  server.get('/v1/companies/:symbol/filings', async (request) => {
    const q = request.query as Q;
    const limit = limitOf(q);
    const cik = await cikOf((request.params as { symbol: string }).symbol);
    return pageBody(await filings.list({ ciks: [cik] }, { direction: 'desc', limit, after: afterOf(q) }));
  });
  server.get('/v1/companies/:symbol/insiders', async (request) => {
    const q = request.query as Q;
    const limit = limitOf(q);
    const cik = await cikOf((request.params as { symbol: string }).symbol);
    return pageBody(await insiders.list({ cik, includeSuperseded: false }, { direction: 'desc', limit, after: afterOf(q) }));
  });
  server.get('/v1/companies/:symbol/fund-exposure', async (request) => {
    const q = request.query as Q;
    const limit = limitOf(q);
    const cik = await cikOf((request.params as { symbol: string }).symbol);
    const [rows, fundCount] = await Promise.all([exposure.list({ cik, sort: 'weight', etfsOnly: false }, { direction: 'desc', limit, after: afterOf(q) }), exposure.countFunds(cik, false)]);
    return { ...pageBody(rows), fund_count: fundCount };
  });
  server.get('/v1/search', async (request) => {
    const q = request.query as Q;
    const limit = limitOf(q);
    const after = afterOf<SearchAfter>(q);
    return pageBody(await search.search({ q: q.q ?? '', kinds: SEARCH_KINDS }, { direction: 'desc', limit, after: after && [after.score, after.kind, after.id] }));
  });
  server.addHook('onClose', async () => dataSource.destroy());
  await listenUntilSignal(server);
}

runRawServer(main);
