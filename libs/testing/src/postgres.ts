import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { runMigrations } from '@app/persistence';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** The server tests create their databases on: DATABASE_URL (scripts/test.sh sets it). */
export function testServerUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run tests through `npm test` (scripts/test.sh sets it)');
  return url;
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/** Creates a fresh database, migrated, on the test server; `drop()` removes it. */
export async function createTestDatabase(prefix = 'test'): Promise<TestDatabase> {
  const server = testServerUrl();
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(server, name);
  await runMigrations({ url, applicationName: 'test-migrate' });
  return {
    url,
    async drop() {
      const c = new Client({ connectionString: server });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
