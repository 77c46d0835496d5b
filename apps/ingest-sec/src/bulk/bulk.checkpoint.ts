import { z } from 'zod';
import { readJsonCheckpoint, writeJsonCheckpoint } from '@app/checkpoints';

/** What identifies one published archive: SEC republishes submissions.zip nightly under one name (a 13F data set may be republished too). */
export const archiveSchema = z.object({
  size: z.number().int().nonnegative(),
  etag: z.string().nullable(),
  last_modified: z.string().nullable(),
});
export type ArchiveVersion = z.infer<typeof archiveSchema>;

/**
 * The checkpoint of a bulk backfill (`ops backfill status` reads the first block of fields).
 * `entries_done` counts entries done in archive order (a prefix: entries 0 .. n-1), so a restart
 * skips them; records of entries after it may be published again (same ids: consumers dedupe).
 */
export const bulkCheckpointSchema = z.object({
  kind: z.literal('bulk-submissions'),
  source: z.string(),
  entries_total: z.number().int().nonnegative().nullable(),
  entries_done: z.number().int().nonnegative(),
  records_published: z.number().int().nonnegative(),
  /** Name of the last entry of the done prefix. */
  done_names_hash_or_last_entry: z.string().nullable(),
  started_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
  // Beyond the shared fields: what a resumed run needs.
  archive: archiveSchema,
  filings_published: z.number().int().nonnegative(),
  companies_published: z.number().int().nonnegative(),
  /** Company names still needed by overflow files after the done prefix. */
  pending_names: z.record(z.string(), z.object({ name: z.string(), waiting: z.array(z.string()) })),
  /** Overflow files whose main file never came (their filings cannot be named). */
  orphan_overflow: z.number().int().nonnegative(),
  /** Entity files that could not be parsed (skipped, logged). */
  unreadable_entries: z.number().int().nonnegative(),
});
export type BulkCheckpoint = z.infer<typeof bulkCheckpointSchema>;

export const readCheckpoint = (path: string): Promise<BulkCheckpoint | null> => readJsonCheckpoint(path, bulkCheckpointSchema, 'bulk-submissions');

export const writeCheckpoint = (path: string, checkpoint: BulkCheckpoint): Promise<void> => writeJsonCheckpoint(path, checkpoint);

/** Whether a checkpoint is about this very archive (same source, same published version). */
export function sameArchive(checkpoint: { source: string; archive: ArchiveVersion }, source: string, archive: ArchiveVersion): boolean {
  return (
    checkpoint.source === source &&
    checkpoint.archive.size === archive.size &&
    checkpoint.archive.etag === archive.etag &&
    checkpoint.archive.last_modified === archive.last_modified
  );
}
