import { z } from 'zod';
import { readJsonCheckpoint, writeJsonCheckpoint } from '@app/checkpoints';

/** What identifies one published archive: SEC republishes submissions.zip and companyfacts.zip nightly under one name (a 13F data set may be republished too). */
export const archiveSchema = z.object({
  size: z.number().int().nonnegative(),
  etag: z.string().nullable(),
  last_modified: z.string().nullable(),
});
export type ArchiveVersion = z.infer<typeof archiveSchema>;

/**
 * The fields every bulk load's checkpoint starts with (`ops backfill status` reads them).
 * `entries_done` counts units done in load order (a prefix: 0 .. n-1), so a restart skips them;
 * records of units after it may be published again (same ids: consumers dedupe).
 */
export const archiveCheckpointSchema = z.object({
  kind: z.string(),
  source: z.string(),
  entries_total: z.number().int().nonnegative().nullable(),
  entries_done: z.number().int().nonnegative(),
  records_published: z.number().int().nonnegative(),
  /** Name of the last unit of the done prefix. */
  last_done: z.string().nullable(),
  started_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
  archive: archiveSchema,
});
export type ArchiveCheckpoint = z.infer<typeof archiveCheckpointSchema>;

/** A load of a zip entry by entry (submissions.zip, companyfacts.zip): the shared fields and the entries that could not be read. */
export const zipEntriesCheckpointSchema = archiveCheckpointSchema.extend({
  /** Entries that could not be parsed (skipped, logged). */
  unreadable_entries: z.number().int().nonnegative(),
});
export type ZipEntriesCheckpoint = z.infer<typeof zipEntriesCheckpointSchema>;

/** The submissions.zip backfill's checkpoint: what a resumed run needs beyond the shared fields. */
export const bulkCheckpointSchema = z.preprocess(
  // Checkpoints written before the bulk loads shared one runner named the last done entry so.
  (raw) => (raw && typeof raw === 'object' && 'done_names_hash_or_last_entry' in raw && !('last_done' in raw) ? { ...raw, last_done: raw.done_names_hash_or_last_entry } : raw),
  zipEntriesCheckpointSchema.extend({
    kind: z.literal('bulk-submissions'),
    filings_published: z.number().int().nonnegative(),
    companies_published: z.number().int().nonnegative(),
    /** Company names still needed by overflow files after the done prefix. */
    pending_names: z.record(z.string(), z.object({ name: z.string(), waiting: z.array(z.string()) })),
    /** Overflow files whose main file never came (their filings cannot be named). */
    orphan_overflow: z.number().int().nonnegative(),
  }),
);
export type BulkCheckpoint = z.infer<typeof bulkCheckpointSchema>;

/** The companyfacts.zip load's checkpoint. */
export const companyFactsBulkCheckpointSchema = zipEntriesCheckpointSchema.extend({
  kind: z.literal('bulk-companyfacts'),
  /** Companies whose records were published (a company file with no facts has none). */
  companies_published: z.number().int().nonnegative(),
  facts_published: z.number().int().nonnegative(),
  /** Concepts refused as too large for one record (see XBRL_FACTS_MAX_RECORD_BYTES), over every run. */
  concepts_too_large: z.number().int().nonnegative(),
});
export type CompanyFactsBulkCheckpoint = z.infer<typeof companyFactsBulkCheckpointSchema>;

export const readArchiveCheckpoint = <C>(path: string, schema: z.ZodType<C>, kind: string): Promise<C | null> => readJsonCheckpoint(path, schema, kind);

export const writeArchiveCheckpoint = (path: string, checkpoint: ArchiveCheckpoint): Promise<void> => writeJsonCheckpoint(path, checkpoint);

/** Whether a checkpoint is about this very archive (same source, same published version). */
export function sameArchive(checkpoint: { source: string; archive: ArchiveVersion }, source: string, archive: ArchiveVersion): boolean {
  return (
    checkpoint.source === source &&
    checkpoint.archive.size === archive.size &&
    checkpoint.archive.etag === archive.etag &&
    checkpoint.archive.last_modified === archive.last_modified
  );
}
