import { parseArgs } from 'node:util';
import { z } from 'zod';
import { edgarConfig, kafkaConfig, logConfig } from '@app/config';

/**
 * The environment of the bulk loads of a zip (`bulk`, `facts-bulk`, `13f-bulk`). EDGAR_USER_AGENT is needed only to read a URL (a local file asks
 * SEC for nothing): a URL without it is refused.
 */
export const bulkConfigSchema = kafkaConfig
  .extend(logConfig.shape)
  .extend({
    EDGAR_USER_AGENT: edgarConfig.shape.EDGAR_USER_AGENT.optional(),
    EDGAR_DATA_BASE_URL: edgarConfig.shape.EDGAR_DATA_BASE_URL,
    EDGAR_MAX_RPS: edgarConfig.shape.EDGAR_MAX_RPS,
    EDGAR_THROTTLE_PAUSE_MS: edgarConfig.shape.EDGAR_THROTTLE_PAUSE_MS,
    EDGAR_BUDGET_REDIS_URL: edgarConfig.shape.EDGAR_BUDGET_REDIS_URL,
    EDGAR_BUDGET_KEY_PREFIX: edgarConfig.shape.EDGAR_BUDGET_KEY_PREFIX,
    BULK_CHECKPOINT: z.string().min(1).default('.run/checkpoints/bulk-submissions.json').describe('Checkpoint file of `bulk` (--checkpoint wins)'),
    FACTS_BULK_CHECKPOINT: z.string().min(1).default('.run/checkpoints/bulk-companyfacts.json').describe('Checkpoint file of `facts-bulk` (--checkpoint wins)'),
    BULK_PUBLISH_BATCH: z.coerce.number().int().min(1).max(100_000).default(2000).describe('Records per acknowledged publish (one checkpoint write each)'),
    BULK_PROGRESS_INTERVAL_S: z.coerce.number().positive().default(5).describe('Seconds between progress log lines without a terminal'),
    BULK_HTTP_BLOCK_BYTES: z.coerce.number().int().min(4096).max(256 * 1024 * 1024).default(8 * 1024 * 1024).describe('Bytes per HTTP range request when reading a URL'),
  });

export type BulkConfig = z.infer<typeof bulkConfigSchema>;

/** Where SEC publishes the nightly archives. */
export const SUBMISSIONS_ZIP_URL = 'https://www.sec.gov/Archives/edgar/daily-index/bulkdata/submissions.zip';
export const COMPANY_FACTS_ZIP_URL = 'https://www.sec.gov/Archives/edgar/daily-index/xbrl/companyfacts.zip';

export const BULK_USAGE = `usage: npm run ingest-sec -- bulk --submissions <path or URL of submissions.zip> [--checkpoint <path>] [--restart]
  --submissions  SEC's nightly archive (${SUBMISSIONS_ZIP_URL}) or a local copy
  --checkpoint   checkpoint file (default BULK_CHECKPOINT, .run/checkpoints/bulk-submissions.json); a rerun skips the entries it lists as done
  --restart      ignore the checkpoint and start from the first entry`;

export const FACTS_BULK_USAGE = `usage: npm run ingest-sec -- facts-bulk --companyfacts <path or URL of companyfacts.zip> [--checkpoint <path>] [--restart]
  --companyfacts  SEC's nightly archive of every company's XBRL facts (${COMPANY_FACTS_ZIP_URL}, ~1.3 GB) or a local copy
  --checkpoint    checkpoint file (default FACTS_BULK_CHECKPOINT, .run/checkpoints/bulk-companyfacts.json); a rerun skips the entries it lists as done
  --restart       ignore the checkpoint and start from the first entry`;

/** A bulk load's command line: the archive, where its checkpoint is, whether to ignore it. */
export interface ZipCommandLine {
  /** Path or URL of the archive. */
  source: string;
  checkpoint?: string;
  restart: boolean;
}

/** The command line `--<sourceOption> <path or URL> [--checkpoint <path>] [--restart]`, or a usage error (exit 2). */
export function parseZipArgs(argv: readonly string[], sourceOption: 'submissions' | 'companyfacts'): ZipCommandLine | { help: true } | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { [sourceOption]: { type: 'string' }, checkpoint: { type: 'string' }, restart: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { help: true };
  const source = values[sourceOption];
  if (typeof source !== 'string' || !source) return { error: `--${sourceOption} <path or URL> is required` };
  return { source, restart: values.restart === true, ...(typeof values.checkpoint === 'string' ? { checkpoint: values.checkpoint } : {}) };
}
