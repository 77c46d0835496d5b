import { z } from 'zod';
import { edgarConfig } from '@app/config';

const flag = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .default('false')
  .transform((v) => v === 'true' || v === '1');
const blankAsUnset = <T extends z.ZodType>(schema: T) => z.union([z.literal('').transform(() => undefined), schema]).optional();

/**
 * What POST /v1/citations/verify fetches with. The EDGAR and IR variables are the ingestors' own,
 * so the api re-reads sources exactly where the ingestors read them (sec.gov by default; a local
 * fixture server when EDGAR_*_BASE_URL point there and IR_ALLOW_PRIVATE_HOSTS is true).
 */
export const citationsConfig = z.object({
  EDGAR_USER_AGENT: blankAsUnset(edgarConfig.shape.EDGAR_USER_AGENT).describe(
    'Declared User-Agent for SEC (as the ingestors send it). Unset: citations of SEC sources answer source_unavailable',
  ),
  EDGAR_WWW_BASE_URL: edgarConfig.shape.EDGAR_WWW_BASE_URL,
  EDGAR_DATA_BASE_URL: edgarConfig.shape.EDGAR_DATA_BASE_URL,
  EDGAR_MAX_RPS: edgarConfig.shape.EDGAR_MAX_RPS,
  EDGAR_THROTTLE_PAUSE_MS: edgarConfig.shape.EDGAR_THROTTLE_PAUSE_MS.describe('After SEC throttles (403/429), SEC sources are not fetched again for this long'),
  IR_USER_AGENT: blankAsUnset(z.string().regex(/^\S+.*(?:@|https?:\/\/)\S+/, 'must name the crawler and a contact')).describe(
    "User-Agent for issuer sites (ingest-ir's); unset: EDGAR_USER_AGENT",
  ),
  IR_MAX_RPS_PER_HOST: z.coerce.number().positive().max(10).default(1),
  IR_ALLOW_PRIVATE_HOSTS: flag.describe('Issuer sources may be on loopback/private addresses (tests and local runs serving fixtures on 127.0.0.1)'),
  CITATIONS_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  CITATIONS_MAX_SOURCE_BYTES: z.coerce.number().int().min(1024).default(50 * 1024 * 1024).describe('Largest source read, EDGAR or issuer site (decks run to tens of MB); a larger one is not downloaded further: source_unavailable'),
  CITATIONS_CACHE_TTL_MS: z.coerce.number().int().min(0).default(5 * 60_000).describe('Fetched sources are reused this long'),
  CITATIONS_CACHE_MAX_BYTES: z.coerce.number().int().min(0).default(128 * 1024 * 1024),
  CITATIONS_CACHE_MAX_ENTRIES: z.coerce.number().int().min(0).default(64),
  CITATIONS_MAX_CONCURRENT: z.coerce
    .number()
    .int()
    .min(1)
    .default(4)
    .describe('Verifications running at once in this process; past it POST /v1/citations/verify answers 503 busy with Retry-After'),
  CITATIONS_PDF_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000).describe('A PDF whose text takes longer to extract (on a worker thread) is not read: quote_not_found, with the reason'),
});

export type CitationsEnvironment = z.infer<typeof citationsConfig>;
