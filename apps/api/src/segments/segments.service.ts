import type { CompanyRecord, SegmentCoverage, SegmentKeyset, SegmentObservation, SegmentsRepository } from '@app/persistence';
import type { CompaniesService } from '../companies/companies.service';

export interface SegmentPage {
  company: CompanyRecord;
  rows: SegmentObservation[];
  hasMore: boolean;
  coverage: SegmentCoverage;
}

/** Segment reads: the company by symbol (404 when unknown), then a keyset page of its observations. */
export class SegmentsService {
  constructor(
    private readonly repo: SegmentsRepository,
    private readonly companies: CompaniesService,
  ) {}

  async page(symbol: string, direction: 'asc' | 'desc', limit: number, after: SegmentKeyset | undefined): Promise<SegmentPage> {
    const company = await this.companies.get(symbol);
    const [rows, coverage] = await Promise.all([
      this.repo.list({ cik: company.cik, direction, limit: limit + 1, after }),
      this.repo.coverage(company.cik),
    ]);
    const hasMore = rows.length > limit;
    if (hasMore) rows.length = limit;
    return { company, rows, hasMore, coverage };
  }
}
