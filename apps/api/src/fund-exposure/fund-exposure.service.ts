import type { FundExposureAsOfCoverage, FundExposureFilter, FundExposureRepository, FundExposureRow, Page, PageRequest } from '@app/persistence';

/** Fund exposure reads: keyset pages over the repository, and the fund count. */
export class FundExposureService {
  constructor(private readonly repo: FundExposureRepository) {}

  list(filter: FundExposureFilter, page: PageRequest): Promise<Page<FundExposureRow>> {
    return this.repo.list(filter, page);
  }

  countFunds(cik: string, etfsOnly: boolean): Promise<number> {
    return this.repo.countFunds(cik, etfsOnly);
  }

  asOfCoverage(cik: string, etfsOnly: boolean, asOf: string): Promise<FundExposureAsOfCoverage> {
    return this.repo.asOfCoverage(cik, etfsOnly, asOf);
  }
}
