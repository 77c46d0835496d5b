import { z } from 'zod';
import { contentHash } from '@app/contracts';
import { archivesDocumentPath, type EdgarClient } from '@app/edgar';
import { SEC_WWW } from './filings/filing.mapper';

/**
 * Largest complete submission a worker reads, in bytes: a larger one (hundreds of MB of XBRL or
 * binaries) is dead-lettered as too large, not held in memory. One config field per worker.
 */
export const maxSubmissionBytes = z.coerce.number().int().min(1_000_000).default(64_000_000);

/** The complete submission text file of a filing: every document of it in one request. */
export function submissionPath(cik: string, accession: string): string {
  return archivesDocumentPath(cik, accession, `${accession}.txt`);
}

export type CompleteSubmissionFetch =
  | { kind: 'ok'; /** www.sec.gov URL, wherever it was fetched from. */ url: string; bytes: Uint8Array; contentHash: string; fetchedAt: string }
  | { kind: 'not_found'; url: string };

/**
 * EDGAR assembles a filing's complete submission about 40 s after acceptance, while the poller can
 * find the filing sooner: a 404 within this long of acceptance means "not yet", and is asked again
 * every SUBMISSION_RETRY_MS.
 */
export const SUBMISSION_ASSEMBLY_MS = 180_000;
export const SUBMISSION_RETRY_MS = 5_000;

export interface SubmissionWait {
  /** The filing's acceptance time (ISO), when known: a recent filing's 404 is waited out. */
  acceptedAt?: string | null;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A filing's complete submission (.txt), refused over `maxBytes` (EdgarError EDGAR_TOO_LARGE, which
 * isUnreadable dead-letters). The 8-K and 13F workers read a filing this way. A 404 for a filing
 * accepted less than SUBMISSION_ASSEMBLY_MS ago is asked again until then; not_found after that.
 */
export async function fetchCompleteSubmission(edgar: EdgarClient, cik: string, accession: string, maxBytes: number, wait: SubmissionWait = {}): Promise<CompleteSubmissionFetch> {
  const path = submissionPath(cik, accession);
  const now = wait.now ?? Date.now;
  const sleep = wait.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const assembledBy = wait.acceptedAt ? Date.parse(wait.acceptedAt) + SUBMISSION_ASSEMBLY_MS : 0;
  for (;;) {
    const result = await edgar.getWww(path, { maxBytes });
    if (result.kind === 'ok') return { kind: 'ok', url: `${SEC_WWW}${path}`, bytes: result.bytes, contentHash: contentHash(result.bytes), fetchedAt: result.fetchedAt };
    if (now() + SUBMISSION_RETRY_MS > assembledBy) return { kind: 'not_found', url: result.url };
    await sleep(SUBMISSION_RETRY_MS);
  }
}
