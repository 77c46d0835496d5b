import type { SearchAfter, SearchHitRecord, SearchKind, SearchRepository } from '@app/persistence';

export interface SearchPage {
  rows: SearchHitRecord[];
  hasMore: boolean;
}

/** Search: one keyset page of ranked hits. */
export class SearchService {
  constructor(private readonly repo: SearchRepository) {}

  async search(q: string, kinds: readonly SearchKind[], limit: number, after: SearchAfter | undefined): Promise<SearchPage> {
    const rows = await this.repo.search({ q, kinds, limit: limit + 1, after });
    const hasMore = rows.length > limit;
    if (hasMore) rows.length = limit;
    return { rows, hasMore };
  }
}
