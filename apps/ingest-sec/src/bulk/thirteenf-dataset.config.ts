import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { bulkConfigSchema } from './bulk.config';

/** The bulk backfill's environment, with a checkpoint of its own. */
export const thirteenFDatasetConfigSchema = bulkConfigSchema.extend({
  THIRTEENF_BULK_CHECKPOINT: z.string().min(1).default('.run/checkpoints/bulk-13f-dataset.json').describe('Checkpoint file (--checkpoint wins)'),
  // A 13f-holdings@1 record holds up to 1,000 holdings (~450 KB): a batch of BULK_PUBLISH_BATCH (2,000) of them would be ~1 GB in memory.
  THIRTEENF_BULK_PUBLISH_BATCH: z.coerce.number().int().min(1).max(10_000).default(100).describe('13F records per acknowledged publish (one checkpoint write each)'),
});
export type ThirteenFDatasetConfig = z.infer<typeof thirteenFDatasetConfigSchema>;

/** Where SEC publishes the Form 13F data sets: a local copy's records cite the file of the same name there. */
export const THIRTEENF_DATASETS_BASE_URL = 'https://www.sec.gov/files/structureddata/data/form-13f-data-sets/';

export const THIRTEENF_BULK_USAGE = `usage: npm run ingest-sec -- 13f-bulk (--file <zip> | --url <url>) [--source-url <url>] [--checkpoint <path>] [--restart]
  --file        a Form 13F data set downloaded from https://www.sec.gov/data-research/sec-markets-data/form-13f-data-sets
  --url         the data set on sec.gov (e.g. ${THIRTEENF_DATASETS_BASE_URL}01jun2024-31aug2024_form13f.zip), read by range requests
  --source-url  the URL the records cite for --file (default: sec.gov's URL of the file's name)
  --checkpoint  checkpoint file (default THIRTEENF_BULK_CHECKPOINT, .run/checkpoints/bulk-13f-dataset.json); a rerun skips the filings it lists as done
  --restart     ignore the checkpoint and start from the first filing`;

export interface ThirteenFBulkCommand {
  /** Path or URL of the zip. */
  source: string;
  /** The URL every record cites as its source_url. */
  sourceUrl: string;
  checkpoint?: string;
  restart: boolean;
}

/** The command line, or a usage error (exit 2). */
export function parseThirteenFBulkArgs(argv: readonly string[]): ThirteenFBulkCommand | { help: true } | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { file: { type: 'string' }, url: { type: 'string' }, 'source-url': { type: 'string' }, checkpoint: { type: 'string' }, restart: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { help: true };
  if (!values.file === !values.url) return { error: 'give one of --file <zip> or --url <url>' };
  if (values.url && !/^https?:\/\//i.test(values.url)) return { error: `--url ${values.url} is not an http(s) URL` };
  const sourceUrl = values.url ?? values['source-url'] ?? `${THIRTEENF_DATASETS_BASE_URL}${encodeURIComponent(basename(values.file!))}`;
  try {
    new URL(sourceUrl);
  } catch {
    return { error: `--source-url ${sourceUrl} is not a URL` };
  }
  return { source: (values.url ?? values.file)!, sourceUrl, restart: values.restart ?? false, ...(values.checkpoint ? { checkpoint: values.checkpoint } : {}) };
}
