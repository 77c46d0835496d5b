import { createHash } from 'node:crypto';
import type { PdfPagesReader } from './pdf-pages';
import type { SourceRoute } from './source-hosts';
import { detectSourceKind, quoteStylesOf, SourceText, type QuoteMatch, type SourceKind } from './source-text';
import type { SourceFetcher, SourceProvider } from './source.fetcher';

/** The parts of a provenance object verification reads (the rest may be passed along and is ignored). */
export interface CitationToVerify {
  source_url: string;
  /** Null: the provenance quotes nothing (a PDF page without text); only the source's hash is checked. */
  quote: string | null;
  /** `sha256:<64 hex>` of the bytes the quote was extracted from. */
  content_hash: string;
  source_provider?: SourceProvider;
  /** A PDF page citation (`...pdf#page=N`) restricts the search to that page. */
  citation_url?: string | null;
}

export const VERIFICATION_REASONS = ['verified', 'quote_not_found', 'content_changed', 'source_unavailable', 'unsupported_source'] as const;
export type VerificationReason = (typeof VERIFICATION_REASONS)[number];

export interface CitationVerdict {
  /** The source still has the hashed bytes and the quote stands in them. */
  verified: boolean;
  content_hash_matches: boolean;
  /** The quote stands in the bytes fetched now; null when the provenance quotes nothing or the bytes changed (content_changed: not looked for). */
  quote_found: boolean | null;
  reason: VerificationReason;
  /** The URL the bytes were read from (EDGAR URLs through the configured EDGAR base). */
  checked_url: string;
  /** When those bytes were fetched (they may come from a short-lived cache); null when nothing was fetched. */
  fetched_at: string | null;
  detail: string;
  /** `sha256:<hex>` of the bytes fetched now; null when nothing was fetched. */
  live_content_hash: string | null;
  /** How the quote was found: see QuoteStyle. */
  quote_style: QuoteMatch['style'] | null;
  /** 0-based PDF page the quote was found on. */
  page_index: number | null;
}

export interface SourceRouter {
  route(url: string, declared?: SourceProvider): Promise<SourceRoute>;
}

/** `#page=N` of a PDF citation (PDF open parameters), as a 0-based index. */
export function citedPageIndex(citationUrl: string | null | undefined): number | undefined {
  const m = citationUrl ? /#(?:.*&)?page=(\d{1,6})(?:&|$)/.exec(citationUrl) : null;
  const n = m ? Number(m[1]) : 0;
  return n >= 1 ? n - 1 : undefined;
}

/**
 * Re-reads the source a provenance names and checks it: (a) fetch `source_url` (the URL whose
 * bytes were hashed, for every record this platform serves) through the host policy and the
 * fetcher, (b) sha256 of the bytes against `content_hash`, (c) the quote against the bytes read
 * the way the extractor of that kind of source quotes (SourceText), only when the hash matches.
 * Changed bytes are reported as `content_changed` at once (quote_found null) and never verified.
 */
export class CitationVerifier {
  /** Hash and texts of each fetched body, kept as long as the fetcher's cache keeps the body. */
  private readonly hashes = new WeakMap<Uint8Array, string>();
  private readonly texts = new WeakMap<Uint8Array, Map<SourceKind, SourceText>>();

  constructor(
    private readonly hosts: SourceRouter,
    private readonly fetcher: SourceFetcher,
    /** How PDF text is read (see createPdfPagesReader); this thread by default. */
    private readonly readPdfPages?: PdfPagesReader,
  ) {}

  async verify(citation: CitationToVerify): Promise<CitationVerdict> {
    const quote = citation.quote;
    const base = { verified: false, content_hash_matches: false, quote_found: quote === null ? null : false, live_content_hash: null, quote_style: null, page_index: null } as const;
    const route = await this.hosts.route(citation.source_url, citation.source_provider);
    if (!route.ok) return { ...base, reason: 'unsupported_source', checked_url: citation.source_url, fetched_at: null, detail: route.detail };

    const fetched = await this.fetcher.fetch(route.request);
    if (fetched.kind === 'unavailable') {
      return { ...base, reason: 'source_unavailable', checked_url: fetched.url, fetched_at: fetched.fetchedAt, detail: fetched.detail };
    }
    const live = this.hashOf(fetched.bytes);
    const seen = { checked_url: fetched.url, fetched_at: fetched.fetchedAt, live_content_hash: live };
    if (live !== citation.content_hash.toLowerCase()) {
      // Changed bytes are never verified, so the quote is not looked for: no parsing (a PDF's text, an
      // inline-XBRL DOM) is spent on a verdict that cannot change.
      return {
        ...base,
        ...seen,
        quote_found: null,
        reason: 'content_changed',
        detail: `the source changed since extraction: its sha256 is now ${live}, not ${citation.content_hash} (the quote is not looked for in other bytes)`,
      };
    }
    if (quote === null) {
      return {
        ...base,
        ...seen,
        verified: true,
        content_hash_matches: true,
        reason: 'verified',
        detail: 'the provenance quotes nothing (a page without text): the source is unchanged (sha256 matches content_hash), which is all there is to verify',
      };
    }
    const kind = detectSourceKind(fetched.bytes, route.request.provider);
    const pageIndex = kind === 'pdf' ? citedPageIndex(citation.citation_url) : undefined;
    let match: QuoteMatch | null = null;
    let unreadable: string | null = null;
    try {
      match = await this.textOf(fetched.bytes, kind).find(quote, pageIndex === undefined ? {} : { pageIndex });
    } catch (error) {
      unreadable = error instanceof Error ? error.message : String(error);
    }
    const where = match ? `${match.style}${match.pageIndex === null ? '' : `, page index ${match.pageIndex}`}` : '';
    const verdict = { ...seen, content_hash_matches: true, quote_found: match !== null, quote_style: match?.style ?? null, page_index: match?.pageIndex ?? null };
    if (!match) {
      const searched = quoteStylesOf(kind).join(', ');
      const page = pageIndex === undefined ? '' : ` on page index ${pageIndex}`;
      return {
        ...verdict,
        verified: false,
        reason: 'quote_not_found',
        detail: unreadable
          ? `the ${kind} source is unchanged (sha256 matches) but could not be read for text: ${unreadable}`
          : `the ${kind} source is unchanged (sha256 matches) but the quote is not in it${page} (searched as ${searched})`,
      };
    }
    return { ...verdict, verified: true, reason: 'verified', detail: `the quote stands in the ${kind} source (${where}), whose sha256 matches content_hash` };
  }

  private hashOf(bytes: Uint8Array): string {
    let hash = this.hashes.get(bytes);
    if (!hash) {
      hash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
      this.hashes.set(bytes, hash);
    }
    return hash;
  }

  private textOf(bytes: Uint8Array, kind: SourceKind): SourceText {
    let byKind = this.texts.get(bytes);
    if (!byKind) {
      byKind = new Map();
      this.texts.set(bytes, byKind);
    }
    let text = byKind.get(kind);
    if (!text) {
      text = new SourceText(bytes, kind, this.readPdfPages);
      byKind.set(kind, text);
    }
    return text;
  }
}
