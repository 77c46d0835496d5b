import type { Transcript } from '@app/contracts';
import { pgQueryable, type PgQueryable, type SqlSource } from '../repositories/pg-queryable';
import { statementNamer } from '../repositories/statement-names';
import { keysetOrder, keysetSql, toPage, type Page, type PageRequest } from '../keyset';

/** One transcript as the read side returns it (read model, camelCase; not an API shape). */
export interface TranscriptRecord {
  id: number;
  documentId: number;
  url: string;
  cik: string;
  /** The record's ticker, else the ticker of the issuer's listing. */
  ticker: string | null;
  company: string | null;
  title: string | null;
  /** YYYY-MM-DD. */
  callDate: string;
  dateSource: string;
  participants: Transcript['participants'];
  turns: Transcript['turns'];
  turnCount: number;
  frontMatter: Transcript['front_matter'];
  backMatter: Transcript['back_matter'];
  contentHash: string;
  srcId: string;
  sourceUrl: string;
  quote: string | null;
  extractedAt: Date | null;
  firstSeenAt: Date;
  /** The document's language and page count, as documents holds them. */
  language: string | null;
  pageCount: number | null;
}

/** A transcript with the document text its turns' offsets point into. */
export interface TranscriptWithText extends TranscriptRecord {
  /** The pages of the current text version joined by the document's page separator. */
  documentText: string;
}

export interface TranscriptListFilter {
  /** Upper-case `<TICKER>:<MARKET>` symbols: transcripts of the issuers (CIKs) listed under them. */
  symbols?: string[];
  /** YYYY-MM-DD, inclusive bounds on the call date. */
  from?: string;
  to?: string;
}

/** The transcript list's order: call date, then id. */
export const TRANSCRIPTS_ORDER = keysetOrder<TranscriptRecord>(
  { sql: 't.call_date', type: 'date', of: (t) => t.callDate },
  { sql: 't.id', type: 'integer', of: (t) => t.id },
);

const COLUMNS = `t.id, t.document_id AS "documentId", t.url, t.cik,
  coalesce(t.ticker, (SELECT c.ticker FROM companies c WHERE c.cik = t.cik ORDER BY c.symbol LIMIT 1)) AS ticker,
  t.company, t.title, to_char(t.call_date, 'YYYY-MM-DD') AS "callDate", t.date_source AS "dateSource", t.participants, t.turns,
  t.turn_count AS "turnCount", t.front_matter AS "frontMatter", t.back_matter AS "backMatter", t.content_hash AS "contentHash",
  t.src_id AS "srcId", t.source_url AS "sourceUrl", t.quote, t.extracted_at AS "extractedAt", t.first_seen_at AS "firstSeenAt",
  d.language, d.page_count AS "pageCount"`;

/** The document text of the transcript's version: its pages (that version only) joined by the separator. */
const TEXT_COLUMN = `(SELECT string_agg(p.text, d.page_separator ORDER BY p.page_index) FROM document_pages p
   WHERE p.document_id = t.document_id AND p.content_hash = t.content_hash) AS "documentText"`;

/*
 * A transcript whose version's pages are gone is held back: part 0 of a new PDF version replaced
 * them and the version's last part, which upserts the row (same id) or deletes it, has not landed.
 */
const TEXT_PRESENT = `EXISTS (SELECT 1 FROM document_pages p WHERE p.document_id = t.document_id AND p.content_hash = t.content_hash)`;

/**
 * Transcripts, read side: keyset pages over (call_date, id), served by transcripts_sort_idx
 * (transcripts_cik_sort_idx when filtered by issuer); one transcript with its document text.
 */
export class TranscriptsRepository {
  private readonly pool: PgQueryable;

  /** On a transaction's EntityManager, reads see that transaction's writes. */
  constructor(source: SqlSource) {
    this.pool = pgQueryable(source);
  }

  async list(filter: TranscriptListFilter, page: PageRequest): Promise<Page<TranscriptRecord>> {
    const where: string[] = [TEXT_PRESENT];
    const params: unknown[] = [];
    const add = (sql: (p: string) => string, value: unknown): void => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (filter.symbols?.length) add((p) => `t.cik IN (SELECT c.cik FROM companies c WHERE c.symbol = ANY(${p}::text[]))`, filter.symbols);
    if (filter.from) add((p) => `t.call_date >= ${p}::date`, filter.from);
    if (filter.to) add((p) => `t.call_date <= ${p}::date`, filter.to);
    const keyset = keysetSql(TRANSCRIPTS_ORDER, page, params);
    if (keyset.predicate) where.push(keyset.predicate);
    const text = `SELECT ${COLUMNS} FROM transcripts t JOIN documents d ON d.id = t.document_id WHERE ${where.join(' AND ')} ${keyset.orderByLimit}`;
    const result = await this.pool.query<TranscriptRecord>({ name: statementName(text), text, values: params });
    return toPage(TRANSCRIPTS_ORDER, result.rows, page.limit);
  }

  async findById(id: number): Promise<TranscriptWithText | null> {
    const result = await this.pool.query<TranscriptWithText>({
      name: 'transcripts_by_id',
      text: `SELECT ${COLUMNS}, ${TEXT_COLUMN} FROM transcripts t JOIN documents d ON d.id = t.document_id WHERE t.id = $1 AND ${TEXT_PRESENT}`,
      values: [id],
    });
    return result.rows[0] ?? null;
  }

  /** Many transcripts by document URL in one query (any order; unknown URLs are absent): the webhook events' data. */
  async findByUrls(urls: readonly string[]): Promise<TranscriptWithText[]> {
    if (urls.length === 0) return [];
    const result = await this.pool.query<TranscriptWithText>({
      name: 'transcripts_by_urls',
      text: `SELECT ${COLUMNS}, ${TEXT_COLUMN} FROM transcripts t JOIN documents d ON d.id = t.document_id WHERE t.url = ANY($1::text[]) AND ${TEXT_PRESENT}`,
      values: [urls],
    });
    return result.rows;
  }

  /** The newest transcript by call date: the test event's sample. */
  async newest(): Promise<TranscriptWithText | null> {
    const [row] = (await this.list({}, { direction: 'desc', limit: 1 })).rows;
    return row ? this.findById(row.id) : null;
  }
}

const statementName = statementNamer('transcripts_list');
