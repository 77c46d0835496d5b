import { databaseConfig, loadOperatorConfig } from '@app/config';
import { runMigrations } from './data-source';

/**
 * `npm run db:migrate`: applies pending migrations to DATABASE_URL (from the environment, else the
 * `.run/ops.env` npm start wrote). A separate step from app start.
 */
async function main(): Promise<void> {
  const config = loadOperatorConfig(databaseConfig);
  const applied = await runMigrations({ url: config.DATABASE_URL, applicationName: 'migrate' });
  console.log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database is up to date');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
