import { join } from 'node:path';
import { findCheckoutRoot, runWorkerWithRunEnv } from './run-env';

/**
 * `node dist/libs/config/src/with-run-env.cli.js <worker main, relative to the checkout> [args]`:
 * what the npm scripts of the workers (`npm run ingest-ir`, `ingest-decks`, `ingest-form4`,
 * `webhooks`) start, so they work from a plain shell after `npm start` as the operator CLIs do.
 */
const [main, ...args] = process.argv.slice(2);
const root = findCheckoutRoot(__dirname);
if (main === undefined || root === null) {
  console.error(main === undefined ? 'usage: with-run-env.cli.js <worker main.js> [args]' : `with-run-env: no checkout above ${__dirname}`);
  process.exit(2);
}
runWorkerWithRunEnv(join(root, main), args, __dirname).catch((err: unknown) => {
  console.error(`${main}: could not load the worker:`, err);
  process.exit(1);
});
