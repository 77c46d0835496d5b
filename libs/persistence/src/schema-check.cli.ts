import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { databaseConfig, loadConfig } from '@app/config';
import { createDataSource, runMigrations } from './data-source';

/**
 * `db:check`: migrates a scratch database and asks TypeORM which SQL would bring it in line with the
 * entities. Any statement means entities and migrations disagree: fail and print them.
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
    const ds = createDataSource({ url: url.toString() });
    await ds.initialize();
    const pending = await ds.driver.createSchemaBuilder().log();
    await ds.destroy();
    if (pending.upQueries.length > 0) {
      console.error('entities and migrations disagree; the entities would need:');
      for (const q of pending.upQueries) console.error(`  ${q.query}`);
      process.exitCode = 1;
    } else {
      console.log('entities and migrations agree');
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
