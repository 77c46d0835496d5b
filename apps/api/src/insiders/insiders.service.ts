import type { InsiderTransactionFilter, InsiderTransactionKey, InsiderTransactionRecord, InsiderTransactionsRepository } from '@app/persistence';

export interface InsiderPage {
  rows: InsiderTransactionRecord[];
  hasMore: boolean;
}

/** Insider transaction reads: keyset paging over the repository. */
export class InsidersService {
  constructor(private readonly repo: InsiderTransactionsRepository) {}

  async list(filter: InsiderTransactionFilter, direction: 'asc' | 'desc', limit: number, after: InsiderTransactionKey | undefined): Promise<InsiderPage> {
    const rows = await this.repo.list({ filter, direction, limit: limit + 1, after });
    const hasMore = rows.length > limit;
    if (hasMore) rows.length = limit;
    return { rows, hasMore };
  }
}
