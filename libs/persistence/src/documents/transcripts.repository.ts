import { pgQueryable, type PgQueryable, type SqlSource } from '../repositories/pg-queryable';
import { statementNamer } from '../repositories/statement-names';
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

export interface TranscriptListQuery {
  filter: TranscriptListFilter;
  direction: 'asc' | 'desc';
  /** Keyset: (call_date, id) of the last row of the previous page (exclusive). */
  after?: { callDate: string; id: number };
  /** Rows to fetch (callers ask for page size + 1 to learn has_more). */
  limit: number;
}

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

  async list(query: TranscriptListQuery): Promise<TranscriptRecord[]> {
    const { filter } = query;
    const where: string[] = [TRANSCRIPT_TEXT_PRESENT];
    const params: unknown[] = [];
    const add = (sql: (p: string) => string, value: unknown): void => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (filter.symbols?.length) add((p) => `t.cik IN (SELECT c.cik FROM companies c WHERE c.symbol = ANY(${p}::text[]))`, filter.symbols);
    if (filter.from) add((p) => `t.call_date >= ${p}::date`, filter.from);
    if (filter.to) add((p) => `t.call_date <= ${p}::date`, filter.to);
    const op = query.direction === 'asc' ? '>' : '<';
    if (query.after) {
      params.push(query.after.callDate, query.after.id);
      where.push(`(t.call_date, t.id) ${op} ($${params.length - 1}::date, $${params.length}::integer)`);
    }
    params.push(query.limit);
    const dir = query.direction === 'asc' ? 'ASC' : 'DESC';
    const text =
      `SELECT ${TRANSCRIPT_RECORD_COLUMNS} FROM transcripts t JOIN documents d ON d.id = t.document_id` +
      ` WHERE ${where.join(' AND ')}` +
      ` ORDER BY t.call_date ${dir}, t.id ${dir} LIMIT $${params.length}`;
    const result = await this.pool.query<TranscriptRecord>({ name: statementName(text), text, values: params });
    return result.rows;
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
    const [row] = await this.list({ filter: {}, direction: 'desc', limit: 1 });
    return row ? this.findById(row.id) : null;
  }
}

const statementName = statementNamer('transcripts_list');
