import { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations';

export interface DatabaseSettings {
  url: string;
  poolSize?: number;
  applicationName?: string;
}

/** The one DataSource definition, used by every app and by the migration CLI. Never synchronize. */
export function createDataSource(settings: DatabaseSettings): DataSource {
  return new DataSource({
    type: 'postgres',
    url: settings.url,
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: settings.poolSize ?? 10,
      application_name: settings.applicationName ?? 'filings-platform',
      // A server that drops packets (host down, network cut) fails a new connection in 5 s instead
      // of holding the request; the api answers that as an outage (503).
      connectionTimeoutMillis: 5_000,
    },
  });
}

/** Runs pending migrations; returns the names of those applied. */
export async function runMigrations(settings: DatabaseSettings): Promise<string[]> {
  const ds = createDataSource(settings);
  await ds.initialize();
  try {
    const applied = await ds.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}

/** The database answers a trivial query (a DataSource or a pg Pool): health checks and outage probes. */
export async function pingDatabase(db: { query(sql: string): Promise<unknown> }): Promise<void> {
  await db.query('SELECT 1');
}
