import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

/**
 * Where a companies run (ticker map -> company@1) stands: the first `covered_done` covered
 * companies of the ticker map with this content hash are published. A rerun of the same command
 * on the same ticker map skips them; on another ticker map it starts over.
 */
export const companiesCheckpointSchema = z.object({
  kind: z.literal('sec-companies'),
  ticker_map_hash: z.string(),
  covered_total: z.number().int().nonnegative(),
  covered_done: z.number().int().nonnegative(),
  records_published: z.number().int().nonnegative(),
  started_at: z.string(),
  updated_at: z.string(),
});
export type CompaniesCheckpoint = z.infer<typeof companiesCheckpointSchema>;

/** The checkpoint at `path`, or null when there is none; an unreadable one is an error (never silently restarted). */
export async function readCompaniesCheckpoint(path: string): Promise<CompaniesCheckpoint | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed = companiesCheckpointSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`checkpoint ${path} is not a sec-companies checkpoint: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** Atomic: written beside, then renamed over, so a killed run leaves the old or the new checkpoint. */
export async function writeCompaniesCheckpoint(path: string, checkpoint: CompaniesCheckpoint): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(checkpoint, null, 2)}\n`);
  await rename(tmp, path);
}

/** A finished run leaves no checkpoint: the next run is a fresh one. */
export async function removeCompaniesCheckpoint(path: string): Promise<void> {
  await rm(path, { force: true });
}
