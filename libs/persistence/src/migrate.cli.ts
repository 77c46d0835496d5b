import { answerArgumentless, databaseConfig, loadOperatorConfig } from '@app/config';
import { runMigrations } from './data-source';

const USAGE = `usage: npm run db:migrate   (no arguments; DATABASE_URL from the environment, else .run/ops.env)
  Applies the pending migrations. Exit codes: 0 done (or up to date), 1 failed, 2 bad input.`;

/**
 * `npm run db:migrate`: applies pending migrations to DATABASE_URL (from the environment, else the
 * `.run/ops.env` npm start wrote). A separate step from app start.
 */
async function main(): Promise<void> {
  const answered = answerArgumentless('db:migrate', process.argv.slice(2), USAGE);
  if (answered !== null) process.exit(answered);
  const config = loadOperatorConfig(databaseConfig);
  const applied = await runMigrations({ url: config.DATABASE_URL, applicationName: 'migrate' });
  console.log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database is up to date');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
