import { z } from 'zod';
import { readJsonCheckpoint, writeJsonCheckpoint } from '@app/checkpoints';
import { archiveCheckpointSchema } from './bulk.checkpoint';

/**
 * The checkpoint of a 13F data-set load. Its entries are the data set's filings in the order the
 * load finishes them (INFOTABLE order of first row, then the filings without rows in SUBMISSION
 * order); `entries_done` is a done prefix of that order (`last_done`: an accession), so a restart
 * skips those filings' rows. Filings done beyond the prefix are published again on a restart (same
 * record ids: consumers dedupe).
 */
export const thirteenFDatasetCheckpointSchema = archiveCheckpointSchema.extend({
  kind: z.literal('bulk-13f-dataset'),
  holdings_published: z.number().int().nonnegative(),
  /** Filings whose INFOTABLE rows could not all be read (skipped whole, logged). */
  unreadable_filings: z.number().int().nonnegative(),
  /** INFOTABLE rows of accessions SUBMISSION does not list (skipped). */
  rows_without_submission: z.number().int().nonnegative(),
});
export type ThirteenFDatasetCheckpoint = z.infer<typeof thirteenFDatasetCheckpointSchema>;

export const readThirteenFDatasetCheckpoint = (path: string): Promise<ThirteenFDatasetCheckpoint | null> =>
  readJsonCheckpoint(path, thirteenFDatasetCheckpointSchema, 'bulk-13f-dataset');

export const writeThirteenFDatasetCheckpoint = (path: string, checkpoint: ThirteenFDatasetCheckpoint): Promise<void> => writeJsonCheckpoint(path, checkpoint);
