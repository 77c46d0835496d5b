import { z } from 'zod';
import { QUOTE_STYLES, VERIFICATION_REASONS } from '@app/citations';
import { dateTimeField } from '@app/resources';

/** Postgres is not involved, but a NUL in a quote is never in a source either: refuse it like the other bodies do. */
const text = () => z.string().refine((v) => !v.includes('\u0000'), { message: 'Input should not contain NUL characters', abort: true });

const urlText = (what: string) =>
  text()
    .min(1)
    .max(4096)
    .refine((v) => URL.canParse(v), { params: { pydantic: 'url_parsing', msg: 'Input should be a valid URL' } })
    .describe(what);

/**
 * A provenance object as the API serves it (every field of one is declared); only source_url,
 * quote and content_hash are needed. Strict, as every body: an unknown field is a 422.
 */
export const citationProvenanceBody = z.strictObject({
  source_url: urlText('The URL whose bytes were hashed (provenance.source_url)'),
  quote: text()
    .min(1)
    .max(32_768)
    .nullable()
    .describe('The supporting text, as the provenance gives it; null (a PDF page without text): only the source\'s hash is checked'),
  content_hash: text()
    .regex(/^sha256:[0-9a-fA-F]{64}$/)
    .describe('sha256:<64 hex> of the bytes the quote was extracted from'),
  source_provider: z.enum(['sec', 'issuer_page']).optional().describe('sec or issuer_page; when absent, told from the host'),
  citation_url: urlText('For a PDF page (…pdf#page=N) the quote is looked for on that page').nullable().optional(),
  src_id: z.string().nullable().optional().describe('Accepted and ignored'),
  accession: z.string().nullable().optional().describe('Accepted and ignored'),
  extracted_at: z.string().nullable().optional().describe('Accepted and ignored'),
});

export const verifyCitationBody = z.strictObject({
  provenance: citationProvenanceBody.describe('A provenance object as served by this API (description_provenance, provenance of a filing, segment, roster entry, document, page, ...)'),
});

export const citationVerdictSchema = z
  .object({
    verified: z.boolean().describe('The source still holds the bytes that were hashed (content_hash_matches) and the quote stands in them (quote_found)'),
    content_hash_matches: z.boolean().describe('sha256 of the bytes fetched now equals content_hash'),
    quote_found: z.boolean().nullable().describe('The quote stands in the bytes fetched now; null when the provenance quotes nothing, or when the bytes changed (content_changed: the quote is not looked for)'),
    reason: z
      .enum(VERIFICATION_REASONS)
      .describe(
        'verified; quote_not_found (the source is unchanged but does not hold the quote); content_changed (the source now hashes differently: ' +
          'never verified, quote_found null); source_unavailable (fetch failed: 404, robots.txt, network, SEC throttling, over CITATIONS_MAX_SOURCE_BYTES, ' +
          'a redirect off the issuer sites this service has read, no User-Agent configured); unsupported_source (not an EDGAR resource this ' +
          'service cites nor a page of an issuer site it has read: nothing was fetched)',
      ),
    checked_url: z.string().describe('The URL the bytes were read from (sec.gov URLs through the configured EDGAR base URL)'),
    fetched_at: dateTimeField().nullable().describe('When those bytes were fetched (ISO 8601; sources are cached for a few minutes); null when nothing was fetched'),
    detail: z.string().describe('What was checked and found, in words'),
    live_content_hash: z.string().nullable().describe('sha256 of the bytes fetched now; null when nothing was fetched'),
    quote_style: z
      .enum(QUOTE_STYLES)
      .nullable()
      .describe(
        'How the quote was found: raw (the bytes as UTF-8, e.g. JSON members, index lines, XML elements), xml_text (entity-decoded XML text), ' +
          'ixbrl_text (an inline-XBRL table row, whitespace normalized), page_text (an IR page\'s visible text), page_meta (its meta description), ' +
          'pdf_text (a PDF page\'s text)',
      ),
    page_index: z.number().int().nullable().describe('0-based PDF page the quote was found on'),
  })
  .describe('The verdict on one citation');

export type VerifyCitationInput = z.infer<typeof verifyCitationBody>;
export type CitationVerdictBody = z.infer<typeof citationVerdictSchema>;
