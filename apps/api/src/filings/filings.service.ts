import type { FilingListFilter, FilingRecord, FilingsRepository, Page, PageRequest } from '@app/persistence';
import { DomainError } from '../platform/api.errors';

export const unknownFiling = (accession: string): DomainError =>
  new DomainError('UnknownFiling', `No filing with the accession number '${accession}' has been indexed.`);

/** Filing reads: keyset pages over the repository, lookups by accession. */
export class FilingsService {
  constructor(private readonly repo: FilingsRepository) {}

  list(filter: FilingListFilter, page: PageRequest): Promise<Page<FilingRecord>> {
    return this.repo.list(filter, page);
  }

  async get(accession: string): Promise<FilingRecord> {
    const record = await this.repo.findByAccession(accession);
    if (!record) throw unknownFiling(accession);
    return record;
  }
}
