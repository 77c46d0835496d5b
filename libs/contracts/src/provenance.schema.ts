import { z } from 'zod';

/** Where a value came from, stamped at ingestion and never rewritten later. */
export const provenanceSchema = z
  .object({
    src_id: z.string().regex(/^src_[A-Za-z0-9_-]+$/).describe('Source identifier, prefix src_: stable for one fetched source'),
    // platform: made by this platform from its own records (a webhook event), no outside source.
    source_provider: z.enum(['sec', 'issuer_page', 'platform']).describe('Who published the source (platform: made by this platform, e.g. a webhook event)'),
    source_url: z.string().url().nullable().describe('The URL the bytes were fetched from'),
    citation_url: z.string().url().optional().describe('Human-facing URL to cite (document records only)'),
    accession: z.string().regex(/^\d{10}-\d{2}-\d{6}$/).nullable().describe('SEC accession number of the filing, when the source is one'),
    quote: z.string().nullable().describe('The supporting text as it stands in the source'),
    content_hash: z.string().regex(/^sha256:[0-9a-f]{64}$/).nullable().describe('sha256 of the fetched bytes'),
    extracted_at: z.string().datetime({ offset: true }).nullable().describe('When the value was extracted (ISO 8601)'),
  })
  .describe('Provenance of a data item');

export type Provenance = z.infer<typeof provenanceSchema>;
