import { join } from 'node:path';
import { runWorkerWithRunEnv } from '@app/config';

/**
 * `npm run ingest-sec -- <command> [options]`: one entry for the ingest-sec workers, from a plain
 * shell in the checkout. It fills in the settings `npm start` wrote under `.run/` (the broker and
 * topic namespace of the running pipeline) under the environment, which wins, then runs the
 * command's worker with the remaining arguments.
 */
// What each does; its options are in its own usage (`<command> --help`), not copied here.
const COMMANDS: Record<string, { main: string; what: string }> = {
  companies: { main: 'main.js', what: 'SEC ticker map + submissions -> edgar.companies.v1' },
  filings: { main: 'filings.main.js', what: "filings by company (backfill), from the daily index (live) or a quarter's full index (quarter) -> edgar.filings.v1" },
  bulk: { main: 'bulk.main.js', what: "SEC's nightly submissions.zip -> filings and companies, resumable" },
  facts: { main: 'facts.main.js', what: "named companies' XBRL company facts (data.sec.gov) -> edgar.xbrl-facts.v1" },
  'facts-bulk': { main: 'facts-bulk.main.js', what: "SEC's nightly companyfacts.zip -> edgar.xbrl-facts.v1, every company, resumable" },
  '13f-bulk': { main: 'thirteenf-bulk.main.js', what: "one of SEC's Form 13F data sets (zip of TSV) -> edgar.13f-holdings.v1, resumable" },
  segments: { main: 'segments.main.js', what: '10-Q / 10-K inline-XBRL segments -> edgar.segments.v1' },
  sections: { main: 'sections.main.js', what: '10-K Items 1, 1A, 7 and the description -> edgar.tenk-sections.v1' },
  eightk: { main: 'eightk.main.js', what: '8-K items and exhibits as documents (named filings, or --follow edgar.filings.v1) -> edgar.filings.v1, ir.document-texts.v1' },
  nport: { main: 'nport.main.js', what: 'N-PORT fund holdings (named filings, or --follow edgar.filings.v1) -> edgar.fund-holdings.v1' },
  '13f': { main: 'thirteenf.main.js', what: '13F institutional holdings (named filings, or --follow edgar.filings.v1) -> edgar.13f-holdings.v1' },
  '13f-list': { main: 'thirteenf-list.main.js', what: "SEC's Official List of Section 13(f) Securities of a quarter -> edgar.13f-securities.v1" },
};

const USAGE = [
  'usage: npm run ingest-sec -- <command> [options]   (`<command> --help`: its options)',
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
runWorkerWithRunEnv(join(__dirname, COMMANDS[name]!.main), rest, __dirname).catch((err: unknown) => {
  console.error(`ingest-sec ${name}: could not load its worker:`, err);
  process.exit(1);
});
