import 'reflect-metadata';
import { runDocumentWorker } from './document-worker.bootstrap';
import { parseFilingArg } from './segments/segment.mapper';
import { segmentsConfigSchema } from './segments/segments.config';
import { SegmentsModule } from './segments/segments.module';
import { SegmentsService } from './segments/segments.service';
import { startSegmentsFollow } from './segments/segments-follow.runner';

const USAGE = `usage: npm run ingest-sec -- segments (--filing <cik>:<accession>:<primary document path> ...| --follow)
  --filing  read one filing's primary inline-XBRL document (repeatable), e.g.
            --filing 320193:0000320193-25-000057:/Archives/edgar/data/320193/000032019325000057/aapl-20250329.htm
  --follow  consume edgar.filings.v1 and read every 10-Q / 10-K as it arrives (until SIGINT/SIGTERM):
            segments and every numeric fact (the facts need the filing day, which --filing runs lack)`;

/** Worker: inline XBRL of 10-Q / 10-K filings -> segment@1 on edgar.segments.v1 and xbrl-facts@1 on edgar.xbrl-facts.v1. */
runDocumentWorker({
  name: 'segments',
  usage: USAGE,
  configSchema: segmentsConfigSchema,
  // A one-off run does not know the filing day its facts records carry: it publishes segments only.
  filingOf: (arg) => ({ ...parseFilingArg(arg), filedDate: null }),
  module: (options) => SegmentsModule.forRoot(options),
  service: SegmentsService,
  startFollow: startSegmentsFollow,
  // Its records make no webhook event: named filings stay history.
  offersLive: false,
});
