import { pgQueryable, type SqlSource } from '../repositories/pg-queryable';
import {
  DOCUMENT_RECORD_COLUMNS,
  TRANSCRIPT_RECORD_COLUMNS,
  TRANSCRIPT_TEXT_COLUMN,
  TRANSCRIPT_TEXT_PRESENT,
  type DocumentRecord,
  type TranscriptWithText,
} from './documents.table';

/*
 * What the projector's webhook events read back of the documents it just wrote, on its transaction's
 * manager (so the reads see those rows): the write side's reads, not the read side's repositories.
 */

/** Many documents by URL in one query (any order; unknown URLs are absent). */
export async function documentsByUrls(source: SqlSource, urls: readonly string[]): Promise<DocumentRecord[]> {
  if (urls.length === 0) return [];
  const result = await pgQueryable(source).query<DocumentRecord>({ name: 'documents_by_urls', text: `SELECT ${DOCUMENT_RECORD_COLUMNS} FROM documents d WHERE d.url = ANY($1::text[])`, values: [urls] });
  return result.rows;
}

/** Many transcripts by document URL in one query (any order; unknown URLs are absent): the webhook events' data. */
export async function transcriptsByUrls(source: SqlSource, urls: readonly string[]): Promise<TranscriptWithText[]> {
  if (urls.length === 0) return [];
  const result = await pgQueryable(source).query<TranscriptWithText>({
    name: 'transcripts_by_urls',
    text: `SELECT ${TRANSCRIPT_RECORD_COLUMNS}, ${TRANSCRIPT_TEXT_COLUMN} FROM transcripts t JOIN documents d ON d.id = t.document_id WHERE t.url = ANY($1::text[]) AND ${TRANSCRIPT_TEXT_PRESENT}`,
    values: [urls],
  });
  return result.rows;
}
