import { sourceId, type PageCitation, type RecordEnvelope } from '@app/contracts';

/**
 * src_id of the page an issuer-page item was read on. Items of one crawl may come from several
 * pages of a site while the envelope names only the crawl's main page: an item cited on that very
 * page (same URL and bytes) keeps the envelope's stamped src_id; one cited on another page gets
 * the id ingestion gives any fetched source, sourceId(url, content hash), so it is the same id the
 * page would carry as a record of its own.
 */
export function citationSrcId(envelope: RecordEnvelope, citation: PageCitation): string {
  const p = envelope.provenance;
  if (p.source_url === citation.source_url && p.content_hash === citation.content_hash) return p.src_id;
  return sourceId(citation.source_url, citation.content_hash);
}
