import type { FundExposureKey, FundExposureRepository, FundExposureRow, FundExposureSort } from '@app/persistence';

export interface FundExposurePage {
  rows: FundExposureRow[];
  hasMore: boolean;
  fundCount: number;
}

/** Fund exposure reads: keyset paging over the repository plus the fund count. */
export class FundExposureService {
  constructor(private readonly repo: FundExposureRepository) {}

  async page(cik: string, sort: FundExposureSort, etfsOnly: boolean, limit: number, after: FundExposureKey | undefined): Promise<FundExposurePage> {
    const [rows, fundCount] = await Promise.all([this.repo.list({ cik, sort, etfsOnly, limit: limit + 1, after }), this.repo.countFunds(cik, etfsOnly)]);
    const hasMore = rows.length > limit;
    if (hasMore) rows.length = limit;
    return { rows, hasMore, fundCount };
  }
}
