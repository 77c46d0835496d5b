import type { CompaniesRepository, CompanyListFilter, CompanyListing, CompanyRecord } from '@app/persistence';
import { unknownSymbol } from '../platform/api.errors';

export interface CompanyPage {
  rows: CompanyListing[];
  hasMore: boolean;
}

/** Company reads: keyset paging over the repository, lookups by symbol. */
export class CompaniesService {
  constructor(private readonly repo: CompaniesRepository) {}

  async list(filter: CompanyListFilter, direction: 'asc' | 'desc', limit: number, after: string | undefined): Promise<CompanyPage> {
    const rows = await this.repo.list({ filter, direction, limit: limit + 1, after });
    const hasMore = rows.length > limit;
    if (hasMore) rows.length = limit;
    return { rows, hasMore };
  }

  /** `symbol` is already validated; lookups are case-insensitive (symbols are stored upper case). */
  async get(symbol: string): Promise<CompanyRecord> {
    const record = await this.repo.findBySymbol(symbol.toUpperCase());
    if (!record) throw unknownSymbol(symbol);
    return record;
  }
}
