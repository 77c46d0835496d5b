import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';

/**
 * The checkpoint at `path` as `schema` reads it, or null when there is none; an unreadable one is
 * an error naming `kind` (a run is never silently restarted from scratch).
 */
export async function readJsonCheckpoint<T>(path: string, schema: z.ZodType<T>, kind: string): Promise<T | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`checkpoint ${path} is not a ${kind} checkpoint: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** Atomic: written beside, then renamed over, so a killed run leaves the old or the new checkpoint, never half of one. */
export async function writeJsonCheckpoint(path: string, checkpoint: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(checkpoint, null, 2)}\n`);
  await rename(tmp, path);
}

/** A finished run leaves no checkpoint: the next run is a fresh one. */
export async function removeJsonCheckpoint(path: string): Promise<void> {
  await rm(path, { force: true });
}
