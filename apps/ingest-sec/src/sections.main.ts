import 'reflect-metadata';
import { runDocumentWorker } from './document-worker.bootstrap';
import { parseFilingArg } from './segments/segment.mapper';
import { sectionsConfigSchema } from './sections/sections.config';
import { SectionsModule, startSectionsFollow } from './sections/sections.module';
import { SectionsService, type SectionsFilingCommand } from './sections/sections.service';

const USAGE = `usage: npm run ingest-sec -- sections (--filing <cik>:<accession>:<primary document path> ...| --follow)
  --filing  read one 10-K's primary document (repeatable), e.g.
            --filing 1318605:0001628280-25-003063:/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm
  --follow  consume edgar.filings.v1 and read the newest 10-K of each issuer as it arrives (until SIGINT/SIGTERM)`;

/** Worker: Items 1, 1A and 7 and the description of 10-K filings -> tenk-section@1 on edgar.tenk-sections.v1. */
runDocumentWorker({
  name: 'sections',
  usage: USAGE,
  configSchema: sectionsConfigSchema,
  // The period comes from the cover page when the filing record is not at hand.
  filingOf: (arg): SectionsFilingCommand => ({ ...parseFilingArg(arg), filedDate: null, reportPeriod: null }),
  module: (options) => SectionsModule.forRoot(options),
  service: SectionsService,
  startFollow: startSectionsFollow,
  // Its records make no webhook event: named filings stay history.
  offersLive: false,
});
