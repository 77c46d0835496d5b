import 'reflect-metadata';
import { runBulkMain } from './bulk/bulk-main';
import { parseThirteenFBulkArgs, THIRTEENF_BULK_USAGE, thirteenFDatasetConfigSchema } from './bulk/thirteenf-dataset.config';
import { ThirteenFDatasetModule } from './bulk/thirteenf-dataset.module';
import { ThirteenFDatasetService } from './bulk/thirteenf-dataset.service';

/**
 * 13F history from one of SEC's Form 13F data sets -> edgar.13f-holdings.v1, resumable.
 * Exit codes: see runBulkMain.
 */
runBulkMain({
  name: '13f-bulk',
  usage: THIRTEENF_BULK_USAGE,
  parseArgs: parseThirteenFBulkArgs,
  configSchema: thirteenFDatasetConfigSchema,
  module: (config) => ThirteenFDatasetModule.forRoot({ config }),
  run: (app, { command, config, source, signal, tty }) =>
    app.get(ThirteenFDatasetService).execute({
      source,
      sourceUrl: command.sourceUrl,
      checkpointPath: command.checkpoint ?? config.THIRTEENF_BULK_CHECKPOINT,
      restart: command.restart,
      signal,
      tty,
    }),
});
