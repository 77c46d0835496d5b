import type { CompaniesRepository, CompanyListFilter, CompanyListing, CompanyRecord, Page, PageRequest } from '@app/persistence';
import { unknownSymbol } from '../platform/api.errors';

/** Company reads: keyset pages over the repository, lookups by symbol. */
export class CompaniesService {
  constructor(private readonly repo: CompaniesRepository) {}

  list(filter: CompanyListFilter, page: PageRequest): Promise<Page<CompanyListing>> {
    return this.repo.list(filter, page);
  }

  /** `symbol` is already validated; lookups are case-insensitive (symbols are stored upper case). */
  async get(symbol: string): Promise<CompanyRecord> {
    const record = await this.repo.findBySymbol(symbol.toUpperCase());
    if (!record) throw unknownSymbol(symbol);
    return record;
  }
}
