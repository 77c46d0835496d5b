import { decodeXml, normalizeWhitespace, parseIxbrl, tenkText, textContent } from '@app/edgar';
import { pageModel } from '@app/issuer-pages';
import { readPdfPagesInThread, type PdfPagesReader } from './pdf-pages';

/**
 * What a fetched source is, as far as quoting goes. Every extractor of the project quotes one of
 * these in one fixed way (see QUOTE_STYLES), so a kind names the texts a quote may stand in:
 * - json: EDGAR JSON (ticker maps, submissions): the member or row as written in the bytes;
 * - text: plain EDGAR text (daily index `.idx`): the line as written;
 * - xml: EDGAR XML (N-PORT primary_doc.xml, Form 4 ownership XML, complete submission `.txt`):
 *   elements as written, or a value as the parser decoded it (entities, trimmed, runs collapsed);
 * - sec_html: EDGAR HTML (inline-XBRL 10-Q/10-K, a plain-HTML 10-K of any era, the current-events
 *   listing): a source line as written, a table row's text (XHTML parsed as XML, entities decoded,
 *   whitespace normalized), or lines of a 10-K's document text (10-K headings and descriptions);
 * - issuer_html: an issuer's IR page: its visible text as libs/issuer-pages reads it, or its meta
 *   description (or an image link's alt) whole;
 * - pdf: a PDF (slide deck, report): a page's text as libs/decks extracts it.
 */
export const SOURCE_KINDS = ['json', 'text', 'xml', 'sec_html', 'issuer_html', 'pdf'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/**
 * How a quote was found:
 * - raw: in the bytes decoded as UTF-8, character for character;
 * - xml_text: in the XML's entity-decoded text, whitespace runs compared as one space (Form 4 values);
 * - ixbrl_text: in the inline-XBRL document's text content, whitespace normalized (segment table rows);
 * - tenk_text: from a line start in a 10-K's document text as libs/edgar's tenkText reads it (one line
 *   per block element): 10-K section headings, and Item 1 descriptions (lines joined by "\n");
 * - page_text: whole lines of the IR page's visible text (one line, or consecutive lines joined by
 *   "\n": roster entries, contacts, document links, descriptions), as libs/issuer-pages quotes;
 * - page_meta: equal to the IR page's meta description or an image link's alt text;
 * - pdf_text: a whole line of a PDF page's text (ingest-decks quotes a page's first line).
 * Line-bounded matching is what those extractors produce, and it keeps a short quote (a slide's
 * "4") from being "found" inside a longer line ("9/30/2014").
 */
export const QUOTE_STYLES = ['raw', 'xml_text', 'ixbrl_text', 'tenk_text', 'page_text', 'page_meta', 'pdf_text'] as const;
export type QuoteStyle = (typeof QUOTE_STYLES)[number];

/** Where a quote was found: the style, and the 0-based page for a PDF. */
export interface QuoteMatch {
  style: QuoteStyle;
  pageIndex: number | null;
}

export interface QuoteOptions {
  /** PDF only: the quote must be on this 0-based page (a page citation `#page=N` names page N-1). */
  pageIndex?: number;
}

const KIND_STYLES: Record<SourceKind, readonly QuoteStyle[]> = {
  json: ['raw'],
  text: ['raw'],
  xml: ['raw', 'xml_text'],
  sec_html: ['raw', 'ixbrl_text', 'tenk_text'],
  issuer_html: ['page_text', 'page_meta'],
  pdf: ['pdf_text'],
};

/** The styles a quote in a source of this kind may be written in, in the order they are tried. */
export function quoteStylesOf(kind: SourceKind): readonly QuoteStyle[] {
  return KIND_STYLES[kind];
}

const PDF_MAGIC = '%PDF-';

/**
 * The kind of a fetched source. A PDF is known by its signature (PDF readers accept it anywhere in
 * the first 1024 bytes); any other issuer source is an IR page; an EDGAR source is told by its
 * first characters: JSON, HTML (an `<html` element near the top, XHTML included), other markup
 * (XML, SGML submissions), else plain text.
 */
export function detectSourceKind(bytes: Uint8Array, provider: 'sec' | 'issuer_page'): SourceKind {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 8192)).toString('latin1');
  const pdfAt = head.indexOf(PDF_MAGIC);
  if (pdfAt >= 0 && pdfAt < 1024) return 'pdf';
  if (provider === 'issuer_page') return 'issuer_html';
  const start = head.replace(/^\uFEFF|^\xEF\xBB\xBF/, '').trimStart();
  if (start.startsWith('{') || start.startsWith('[')) return 'json';
  if (start.startsWith('<')) return /<html[\s>]/i.test(head) ? 'sec_html' : 'xml';
  return 'text';
}

/** The texts of one source, built once per style and kept (a PDF is read once for many quotes). */
export class SourceText {
  private raw?: string;
  private xmlText?: string;
  private ixbrlText?: string;
  private tenkText?: string;
  private issuerPage?: { text: string; exact: ReadonlySet<string> };
  private pdfPages?: Promise<string[]>;

  constructor(
    readonly bytes: Uint8Array,
    readonly kind: SourceKind,
    /** How a PDF's pages are read (a worker thread in the api; this thread by default). */
    private readonly readPdfPages: PdfPagesReader = readPdfPagesInThread,
  ) {}

  /** Where the quote stands in this source, or null when it stands nowhere. */
  async find(quote: string, options: QuoteOptions = {}): Promise<QuoteMatch | null> {
    // Whitespace supports nothing, though it stands in every source.
    if (quote.trim().length === 0) return null;
    // A style that cannot read the source (a plain-HTML 10-K is no XML for ixbrl_text) leaves the
    // others to try; its error stands only when no style finds the quote.
    let unreadable: Error | null = null;
    for (const style of KIND_STYLES[this.kind]) {
      if (style === 'pdf_text') {
        const pages = await this.pdf();
        const needle = `\n${quote}\n`;
        const pageIndex = pages.findIndex((text, i) => (options.pageIndex === undefined || options.pageIndex === i) && text.includes(needle));
        if (pageIndex >= 0) return { style, pageIndex };
        continue;
      }
      try {
        if (this.findSync(style, quote)) return { style, pageIndex: null };
      } catch (error) {
        unreadable ??= error instanceof Error ? error : new Error(String(error));
      }
    }
    if (unreadable !== null) throw unreadable;
    return null;
  }

  private findSync(style: Exclude<QuoteStyle, 'pdf_text'>, quote: string): boolean {
    switch (style) {
      case 'raw':
        return this.rawText().includes(quote);
      case 'xml_text': {
        // Form 4 values are decoded, trimmed and their whitespace runs collapsed (form4.parser clean()).
        const needle = collapseRuns(quote).trim();
        this.xmlText ??= collapseRuns(decodeXml(this.rawText()));
        return needle.length > 0 && this.xmlText.includes(needle);
      }
      case 'ixbrl_text': {
        // Segment quotes are normalizeWhitespace(textContent(<tr>)) of the same XML-mode DOM.
        const needle = normalizeWhitespace(quote);
        this.ixbrlText ??= normalizeWhitespace(textContent(parseIxbrl(Buffer.from(this.bytes)).dom));
        return needle.length > 0 && this.ixbrlText.includes(needle);
      }
      case 'tenk_text':
        // Headings are whole lines; a description starts a line (its last sentence may end mid-line).
        this.tenkText ??= `\n${tenkText(this.bytes).text}\n`;
        return this.tenkText.includes(`\n${quote}`);
      case 'page_text':
        return this.page().text.includes(`\n${quote}\n`);
      case 'page_meta':
        return this.page().exact.has(quote);
    }
  }

  private rawText(): string {
    this.raw ??= Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString('utf8');
    return this.raw;
  }

  /** The page as libs/issuer-pages reads it: every quote its extractors make is whole lines of `text` (framed by "\n"), or one of `exact`. */
  private page(): { text: string; exact: ReadonlySet<string> } {
    if (!this.issuerPage) {
      const model = pageModel(Buffer.from(this.bytes), 'http://page.invalid/');
      const exact = new Set<string>();
      if (model.metaDescription) exact.add(model.metaDescription);
      for (const link of model.links) if (link.imageAlt) exact.add(link.imageAlt);
      this.issuerPage = { text: `\n${model.lines.join('\n')}\n`, exact };
    }
    return this.issuerPage;
  }

  /** Each page's text framed by "\n", so a whole line is found as `\n<line>\n`. */
  private pdf(): Promise<string[]> {
    // The same extraction ingest-decks ran (it copies the bytes before pdfjs detaches them).
    this.pdfPages ??= this.readPdfPages(this.bytes).then((pages) => pages.map((text) => `\n${text}\n`));
    return this.pdfPages;
  }
}

function collapseRuns(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/**
 * Whether `quote` occurs in `content` read as a source of `kind`, in one of the ways the project's
 * extractors quote such a source (see SourceKind and QuoteStyle). Pure; async only because PDF
 * text extraction is.
 */
export async function quoteOccursIn(content: Uint8Array, kind: SourceKind, quote: string, options: QuoteOptions = {}): Promise<boolean> {
  return (await new SourceText(content, kind).find(quote, options)) !== null;
}
