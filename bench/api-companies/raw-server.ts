import Fastify from 'fastify';
import { CompaniesRepository, createDataSource } from '@app/persistence';
import { listenUntilSignal, runRawServer } from '../bench-support';

/**
 * Baseline for the api bench: bare Fastify + the api's pg pool running the very same query for the api's defaults (active_only=true, asc)
 * (`CompaniesRepository.list`, same SQL text and prepared statement, same page of limit + 1 rows), and
 * nothing else: no auth, rate limit, validation, cursor, mapping or request log.
 * Env: DATABASE_URL, PORT, DATABASE_POOL_SIZE. `?after=<symbol>` starts a page after a symbol.
 */
async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  // createDataSource only to get the pg Pool the api gets (same driver, same pool settings).
  const dataSource = createDataSource({ url, poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 10), applicationName: 'bench-raw' });
  await dataSource.initialize();
  const companies = new CompaniesRepository(dataSource);
  const server = Fastify({ logger: false });
  server.get('/healthz', async () => ({ status: 'ok' }));
  server.get('/v1/companies', async (request) => {
    const q = request.query as { limit?: string; after?: string };
    const limit = Number(q.limit ?? 50) || 50;
    const page = await companies.list({ activeOnly: true }, { direction: 'asc', limit, after: q.after !== undefined ? [q.after] : undefined });
    return { data: page.rows, pagination: { next_cursor: null, has_more: page.hasMore } };
  });
  server.addHook('onClose', async () => dataSource.destroy());
  await listenUntilSignal(server);
}

runRawServer(main);
