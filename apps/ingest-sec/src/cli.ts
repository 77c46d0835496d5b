import { applyRunEnv } from '@app/config';

/**
 * `npm run ingest-sec -- <command> [options]`: one entry for the ingest-sec workers, from a plain
 * shell in the checkout. It fills in the settings `npm start` wrote under `.run/` (the broker and
 * topic namespace of the running pipeline) under the environment, which wins, then runs the
 * command's worker with the remaining arguments.
 */
const COMMANDS: Record<string, { main: string; what: string }> = {
  companies: { main: './main.js', what: 'SEC ticker map + submissions -> company@1 (SEC_COVERAGE, SEC_SUBMISSIONS)' },
  filings: { main: './filings.main.js', what: 'backfill --companies A,B [--from D --to D] | live [--once] [--date D] [--interval S]' },
  bulk: { main: './bulk.main.js', what: '--submissions <path or URL of submissions.zip> [--checkpoint <path>] [--restart]' },
  segments: { main: './segments.main.js', what: '--filing <cik>:<accession>:<primary doc path> ... | --follow' },
  sections: { main: './sections.main.js', what: '--filing <cik>:<accession>:<primary doc path> ... | --follow' },
  nport: { main: './nport.main.js', what: '--filing <cik>:<accession> ...' },
};

const USAGE = [
  'usage: npm run ingest-sec -- <command> [options]   (--help after a command: its own options)',
  ...Object.entries(COMMANDS).map(([command, c]) => `  ${command.padEnd(10)} ${c.what}`),
].join('\n');

const [name, ...rest] = process.argv.slice(2);
if (name === undefined) {
  console.error(USAGE);
  process.exit(2);
}
if (name === '--help' || name === '-h' || name === 'help') {
  console.log(USAGE);
  process.exit(0);
}
if (!Object.hasOwn(COMMANDS, name)) {
  console.error(`ingest-sec: unknown command ${JSON.stringify(name)}\n${USAGE}`);
  process.exit(2);
}
applyRunEnv(process.env, __dirname);
// The worker reads its arguments from process.argv, as when it is started directly.
process.argv = [process.argv[0]!, process.argv[1]!, ...rest];
import(COMMANDS[name]!.main).catch((err: unknown) => {
  console.error(`ingest-sec ${name}: could not load its worker:`, err);
  process.exit(1);
});
