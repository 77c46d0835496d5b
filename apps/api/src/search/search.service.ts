import { isQueryCanceled, type Page, type PageRequest, type SearchFilter, type SearchHitRecord, type SearchRepository } from '@app/persistence';
import { DomainError } from '../platform/api.errors';

/** Seconds a client is asked to wait after a search timed out. */
export const SEARCH_TIMEOUT_RETRY_AFTER_S = 2;

/** 503 search-timeout: the statement ran past SEARCH_STATEMENT_TIMEOUT_MS and Postgres cancelled it. */
export const searchTimeout = (): DomainError =>
  new DomainError(
    'SearchTimeout',
    'The search took longer than this server allows and was cancelled. Retry after Retry-After seconds; a more specific q (more words) or fewer kinds answers faster.',
    { 'retry-after': String(SEARCH_TIMEOUT_RETRY_AFTER_S) },
  );

/** Search: one keyset page of ranked hits. */
export class SearchService {
  constructor(private readonly repo: SearchRepository) {}

  async search(filter: SearchFilter, page: PageRequest): Promise<Page<SearchHitRecord>> {
    try {
      return await this.repo.search(filter, page);
    } catch (err) {
      // The statement timeout (57014 query_canceled) is load or an expensive query, not a fault: 503, never 500.
      if (isQueryCanceled(err)) throw searchTimeout();
      throw err;
    }
  }
}
