import { pgQueryable, type PgQueryable, type SqlSource } from '../repositories/pg-queryable';
import { statementNamer } from '../repositories/statement-names';
import { keysetOrder, keysetSql, toPage, type Page, type PageRequest } from '../keyset';
import {
  TRANSCRIPT_RECORD_COLUMNS,
  TRANSCRIPT_TEXT_COLUMN,
  TRANSCRIPT_TEXT_PRESENT,
  type TranscriptRecord,
  type TranscriptWithText,
} from './documents.table';

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
    const where: string[] = [TRANSCRIPT_TEXT_PRESENT];
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
    const text = `SELECT ${TRANSCRIPT_RECORD_COLUMNS} FROM transcripts t JOIN documents d ON d.id = t.document_id WHERE ${where.join(' AND ')} ${keyset.orderByLimit}`;
    const result = await this.pool.query<TranscriptRecord>({ name: statementName(text), text, values: params });
    return toPage(TRANSCRIPTS_ORDER, result.rows, page.limit);
  }

  async findById(id: number): Promise<TranscriptWithText | null> {
    const result = await this.pool.query<TranscriptWithText>({
      name: 'transcripts_by_id',
      text: `SELECT ${TRANSCRIPT_RECORD_COLUMNS}, ${TRANSCRIPT_TEXT_COLUMN} FROM transcripts t JOIN documents d ON d.id = t.document_id WHERE t.id = $1 AND ${TRANSCRIPT_TEXT_PRESENT}`,
      values: [id],
    });
    return result.rows[0] ?? null;
  }

  /** The newest transcript by call date: the test event's sample. */
  async newest(): Promise<TranscriptWithText | null> {
    const [row] = (await this.list({}, { direction: 'desc', limit: 1 })).rows;
    return row ? this.findById(row.id) : null;
  }
}

const statementName = statementNamer('transcripts_list');
