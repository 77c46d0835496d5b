import { z } from 'zod';
import type { RecordOrigin } from '@app/contracts';
import { readJsonCheckpoint, removeJsonCheckpoint, selectionHash, writeJsonCheckpoint } from '@app/checkpoints';
import type { Form4FilingRef, IngestForm4Config, IssuerSelector } from './ingest-form4.config';

/**
 * Where a one-shot Form 4 run stands: the accessions it published. The same command (same
 * filings, same discovery, same topic) skips them and reads the rest; another selection starts
 * over. A set rather than a prefix: discovery reads the submissions JSON again, and a filing filed
 * since moves every later one down the list.
 */
export const form4CheckpointSchema = z.object({
  kind: z.literal('form4-filings'),
  /** selectionHash of what the run publishes: see form4SelectionHash. */
  selection_hash: z.string(),
  /** Accessions published by this run and the runs it resumed, in the order they were published. */
  published: z.array(z.string()),
  /** How many those are (what `ops backfill status` shows of a checkpoint). */
  records_published: z.number().int().nonnegative(),
  started_at: z.string(),
  updated_at: z.string(),
});
export type Form4Checkpoint = z.infer<typeof form4CheckpointSchema>;

/** What decides which records a one-shot run publishes: its filings, its discovery and the issuers it covers, the topic, their origin. */
export function form4SelectionHash(
  selection: { filings: readonly Form4FilingRef[]; discover: IssuerSelector; topic: string; origin: RecordOrigin },
  config: Pick<IngestForm4Config, 'FORM4_ISSUERS' | 'FORM4_FROM' | 'FORM4_TO' | 'FORM4_LATEST'>,
): string {
  return selectionHash({
    filings: selection.filings.map((f) => `${f.cik}:${f.accession}:${f.document ?? ''}`),
    submissions: selection.discover,
    issuers: config.FORM4_ISSUERS,
    from: config.FORM4_FROM,
    to: config.FORM4_TO,
    latest: config.FORM4_LATEST,
    topic: selection.topic,
    // A live run (`--live`) must not skip filings a stopped backfill run published as history, nor
    // the other way round. Named only when live: a backfill's hash stays what it was before origin.
    ...(selection.origin === 'live' ? { origin: 'live' } : {}),
  });
}

export const readForm4Checkpoint = (path: string): Promise<Form4Checkpoint | null> => readJsonCheckpoint(path, form4CheckpointSchema, 'form4-filings');

export const writeForm4Checkpoint = (path: string, checkpoint: Omit<Form4Checkpoint, 'records_published'>): Promise<void> =>
  writeJsonCheckpoint(path, { ...checkpoint, records_published: checkpoint.published.length });

/** A finished run leaves no checkpoint: the next run is a fresh one. */
export const removeForm4Checkpoint = (path: string): Promise<void> => removeJsonCheckpoint(path);
