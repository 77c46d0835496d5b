import 'reflect-metadata';
import { runBulkMain } from './bulk/bulk-main';
import { bulkConfigSchema, FACTS_BULK_USAGE, parseZipArgs } from './bulk/bulk.config';
import { BulkModule } from './bulk/bulk.module';
import { CompanyFactsBulkService } from './bulk/companyfacts-bulk.service';

/**
 * Every company's XBRL facts from SEC's nightly companyfacts.zip -> edgar.xbrl-facts.v1, resumable.
 * `node dist/apps/ingest-sec/src/facts-bulk.main.js --companyfacts <path or URL> [--checkpoint <path>] [--restart]`
 * Exit codes: see runBulkMain.
 */
runBulkMain({
  name: 'facts-bulk',
  usage: FACTS_BULK_USAGE,
  parseArgs: (argv) => parseZipArgs(argv, 'companyfacts'),
  configSchema: bulkConfigSchema,
  module: (config) => BulkModule.forRoot({ config }),
  run: (app, { command, config, source, signal, tty }) =>
    app.get(CompanyFactsBulkService).execute({ source, checkpointPath: command.checkpoint ?? config.FACTS_BULK_CHECKPOINT, restart: command.restart, signal, tty }),
});
