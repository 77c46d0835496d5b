import { z } from 'zod';
import { readJsonCheckpoint, removeJsonCheckpoint, writeJsonCheckpoint } from '@app/checkpoints';

/**
 * Where a companies run (ticker map -> company@1) stands: the first `covered_done` covered
 * companies of the ticker map with this content hash are published. A rerun of the same command
 * on the same ticker map skips them; on another ticker map, or with another selection of companies
 * (SEC_COVERAGE) or of those fetched in detail (SEC_SUBMISSIONS), it starts over.
 */
export const companiesCheckpointSchema = z.object({
  kind: z.literal('sec-companies'),
  ticker_map_hash: z.string(),
  /**
   * Hash of the covered companies and the SEC_SUBMISSIONS selection: what the run publishes.
   * Missing in checkpoints written before it existed: those are of an unknown selection (start over).
   */
  selection_hash: z.string().optional(),
  covered_total: z.number().int().nonnegative(),
  covered_done: z.number().int().nonnegative(),
  records_published: z.number().int().nonnegative(),
  started_at: z.string(),
  updated_at: z.string(),
});
export type CompaniesCheckpoint = z.infer<typeof companiesCheckpointSchema>;

export const readCompaniesCheckpoint = (path: string): Promise<CompaniesCheckpoint | null> =>
  readJsonCheckpoint(path, companiesCheckpointSchema, 'sec-companies');

export const writeCompaniesCheckpoint = (path: string, checkpoint: CompaniesCheckpoint): Promise<void> => writeJsonCheckpoint(path, checkpoint);

/** A finished run leaves no checkpoint: the next run is a fresh one. */
export const removeCompaniesCheckpoint = (path: string): Promise<void> => removeJsonCheckpoint(path);
