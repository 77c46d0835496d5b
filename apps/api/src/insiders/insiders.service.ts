import type { InsiderTransactionFilter, InsiderTransactionRecord, InsiderTransactionsRepository, Page, PageRequest } from '@app/persistence';

/** Insider transaction reads: keyset pages over the repository. */
export class InsidersService {
  constructor(private readonly repo: InsiderTransactionsRepository) {}

  list(filter: InsiderTransactionFilter, page: PageRequest): Promise<Page<InsiderTransactionRecord>> {
    return this.repo.list(filter, page);
  }
}
