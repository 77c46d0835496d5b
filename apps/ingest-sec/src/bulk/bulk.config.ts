import { parseArgs } from 'node:util';
import { z } from 'zod';
import { edgarConfig, kafkaConfig, logConfig } from '@app/config';

/**
 * The bulk backfill's environment. EDGAR_USER_AGENT is needed only to read a URL (a local file asks
 * SEC for nothing): bulk.main.ts refuses a URL without it.
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
    BULK_CHECKPOINT: z.string().min(1).default('.run/checkpoints/bulk-submissions.json').describe('Checkpoint file (--checkpoint wins)'),
    BULK_PUBLISH_BATCH: z.coerce.number().int().min(1).max(100_000).default(2000).describe('Records per acknowledged publish (one checkpoint write each)'),
    BULK_PROGRESS_INTERVAL_S: z.coerce.number().positive().default(5).describe('Seconds between progress log lines without a terminal'),
    BULK_HTTP_BLOCK_BYTES: z.coerce.number().int().min(4096).max(256 * 1024 * 1024).default(8 * 1024 * 1024).describe('Bytes per HTTP range request when reading a URL'),
  });

export type BulkConfig = z.infer<typeof bulkConfigSchema>;

export const BULK_USAGE = `usage: npm run ingest-sec -- bulk --submissions <path or URL of submissions.zip> [--checkpoint <path>] [--restart]
  --submissions  SEC's nightly archive (https://www.sec.gov/Archives/edgar/daily-index/bulkdata/submissions.zip) or a local copy
  --checkpoint   checkpoint file (default BULK_CHECKPOINT, .run/checkpoints/bulk-submissions.json); a rerun skips the entries it lists as done
  --restart      ignore the checkpoint and start from the first entry`;

export interface BulkCommand {
  submissions: string;
  checkpoint?: string;
  restart: boolean;
}

/** The command line, or a usage error (exit 2). */
export function parseBulkArgs(argv: readonly string[]): BulkCommand | { help: true } | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { submissions: { type: 'string' }, checkpoint: { type: 'string' }, restart: { type: 'boolean' }, help: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { help: true };
  if (!values.submissions) return { error: '--submissions <path or URL> is required' };
  return { submissions: values.submissions, restart: values.restart ?? false, ...(values.checkpoint ? { checkpoint: values.checkpoint } : {}) };
}
