import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { databaseConfig, loadConfig } from '@app/config';
import { runMigrations } from './data-source';
import { catalogColumns, schemaDifferences } from './schema-check';
import { TABLES } from './tables';

/**
 * `db:check`: migrates a scratch database and compares its tables with the table specs (columns,
 * types, nullability, defaults, generated expressions, primary keys). Any difference means a
 * migration and a spec disagree: fail and print them.
 */
async function main(): Promise<void> {
  const server = loadConfig(databaseConfig).DATABASE_URL;
  const name = `schema_check_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  try {
    await runMigrations({ url: url.toString() });
    const scratch = new Client({ connectionString: url.toString() });
    await scratch.connect();
    const differences = schemaDifferences(TABLES, await catalogColumns(scratch));
    await scratch.end();
    if (differences.length > 0) {
      console.error('table specs and migrations disagree:');
      for (const d of differences) console.error(`  ${d}`);
      process.exitCode = 1;
    } else {
      console.log('table specs and migrations agree');
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
