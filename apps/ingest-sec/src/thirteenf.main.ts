import 'reflect-metadata';
import { padCik } from '@app/contracts';
import { runDocumentWorker } from './document-worker.bootstrap';
import { thirteenfConfigSchema } from './thirteenf/thirteenf.config';
import { startThirteenFFollow, ThirteenFModule } from './thirteenf/thirteenf.module';
import { ThirteenFService, type ThirteenFFilingCommand } from './thirteenf/thirteenf.service';

const USAGE = `usage: npm run ingest-sec -- 13f (--filing <cik>:<accession> ... [--live] | --follow)
  --filing  read one 13F filing's complete submission (repeatable): its holdings, value unit and amendment,
            e.g. --filing 1619124:0001619124-21-000002
  --live    the --filing filings are ones the live poller missed: publish them as live (webhook events)
  --follow  consume edgar.filings.v1 and read every 13F-HR, 13F-HR/A, 13F-NT and 13F-NT/A as it arrives
            (group THIRTEENF_GROUP_ID; until SIGINT/SIGTERM)`;

function filingOf(arg: string): ThirteenFFilingCommand {
  const m = /^(\d{1,10}):(\d{10}-\d{2}-\d{6})$/.exec(arg.trim());
  if (!m) throw new RangeError(`--filing expects <cik>:<accession>, got "${arg}"`);
  return { cik: padCik(m[1]!), accession: m[2]!, known: null };
}

/** Worker: 13F filings -> 13f-holdings@1 on edgar.13f-holdings.v1. */
runDocumentWorker({
  name: '13f',
  usage: USAGE,
  configSchema: thirteenfConfigSchema,
  filingOf,
  module: (options) => ThirteenFModule.forRoot(options),
  service: ThirteenFService,
  startFollow: startThirteenFFollow,
  offersLive: true,
});
