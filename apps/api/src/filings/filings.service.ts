import type { FilingListFilter, FilingRecord, FilingsRepository } from '@app/persistence';
import { ApiError } from '../platform/api.errors';

export interface FilingPage {
  rows: FilingRecord[];
  hasMore: boolean;
}

export const unknownFiling = (accession: string): ApiError =>
  new ApiError(404, 'unknown-filing', 'Unknown filing', `No filing with the accession number '${accession}' has been indexed.`);

/** Filing reads: keyset paging over the repository, lookups by accession. */
export class FilingsService {
  constructor(private readonly repo: FilingsRepository) {}

  async list(
    filter: FilingListFilter,
    direction: 'asc' | 'desc',
    limit: number,
    after: { filedDate: string; accession: string } | undefined,
  ): Promise<FilingPage> {
    const rows = await this.repo.list({ filter, direction, limit: limit + 1, after });
    const hasMore = rows.length > limit;
    if (hasMore) rows.length = limit;
    return { rows, hasMore };
  }

  async get(accession: string): Promise<FilingRecord> {
    const record = await this.repo.findByAccession(accession);
    if (!record) throw unknownFiling(accession);
    return record;
  }
}
