import type { CompanyRecord, Page, PageRequest, SegmentCoverage, SegmentObservation, SegmentsRepository } from '@app/persistence';
import type { CompaniesService } from '../companies/companies.service';

export interface SegmentPage {
  company: CompanyRecord;
  page: Page<SegmentObservation>;
  coverage: SegmentCoverage;
}

/** Segment reads: the company by symbol (404 when unknown), then a keyset page of its observations. */
export class SegmentsService {
  constructor(
    private readonly repo: SegmentsRepository,
    private readonly companies: CompaniesService,
  ) {}

  async page(symbol: string, page: PageRequest): Promise<SegmentPage> {
    const company = await this.companies.get(symbol);
    const [rows, coverage] = await Promise.all([this.repo.list(company.cik, page), this.repo.coverage(company.cik)]);
    return { company, page: rows, coverage };
  }
}
