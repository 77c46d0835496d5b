import 'reflect-metadata';
import { BulkBackfillService } from './bulk/bulk-backfill.service';
import { runBulkMain } from './bulk/bulk-main';
import { BULK_USAGE, bulkConfigSchema, parseZipArgs } from './bulk/bulk.config';
import { BulkModule } from './bulk/bulk.module';

/**
 * Bulk backfill of filings (and listed companies) from SEC's nightly submissions.zip.
 * `node dist/apps/ingest-sec/src/bulk.main.js --submissions <path or URL> [--checkpoint <path>] [--restart]`
 * Exit codes: see runBulkMain.
 */
runBulkMain({
  name: 'bulk',
  usage: BULK_USAGE,
  parseArgs: (argv) => parseZipArgs(argv, 'submissions'),
  configSchema: bulkConfigSchema,
  module: (config) => BulkModule.forRoot({ config }),
  run: (app, { command, config, source, signal, tty }) =>
    app.get(BulkBackfillService).execute({ source, checkpointPath: command.checkpoint ?? config.BULK_CHECKPOINT, restart: command.restart, signal, tty }),
});
