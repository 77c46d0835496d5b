import 'reflect-metadata';
import { padCik } from '@app/contracts';
import { runDocumentWorker } from './document-worker.bootstrap';
import { eightkConfigSchema } from './eightk/eightk.config';
import { EightKModule, startEightKFollow } from './eightk/eightk.module';
import { EightKService, type EightKFilingCommand } from './eightk/eightk.service';

const USAGE = `usage: npm run ingest-sec -- eightk (--filing <cik>:<accession> ... [--live] | --follow)
  --filing  read one 8-K's complete submission (repeatable): its items and its exhibits as documents,
            e.g. --filing 796343:0000796343-23-000044
  --live    the --filing 8-Ks are ones the live poller missed: publish them as live (webhook events)
  --follow  consume edgar.filings.v1 and read every 8-K as it arrives (group EIGHTK_GROUP_ID; until SIGINT/SIGTERM)`;

function filingOf(arg: string): EightKFilingCommand {
  const m = /^(\d{1,10}):(\d{10}-\d{2}-\d{6})$/.exec(arg.trim());
  if (!m) throw new RangeError(`--filing expects <cik>:<accession>, got "${arg}"`);
  return { cik: padCik(m[1]!), accession: m[2]!, known: null };
}

/** Worker: 8-K items and exhibits -> filing@1 on edgar.filings.v1 and document-text@1 on ir.document-texts.v1. */
runDocumentWorker({
  name: 'eightk',
  usage: USAGE,
  configSchema: eightkConfigSchema,
  filingOf,
  module: (options) => EightKModule.forRoot(options),
  service: EightKService,
  startFollow: startEightKFollow,
  offersLive: true,
});
