import type { CompanyRecord, TenkSectionRecord, TenkSectionsRepository } from '@app/persistence';
import type { CompaniesService } from '../companies/companies.service';
import { DomainError } from '../platform/api.errors';

/** Section reads: the company by symbol (404 when unknown), then the item of its issuer's newest 10-K. */
export class SectionsService {
  constructor(
    private readonly repo: TenkSectionsRepository,
    private readonly companies: CompaniesService,
  ) {}

  async get(symbol: string, item: string): Promise<{ company: CompanyRecord; section: TenkSectionRecord }> {
    const company = await this.companies.get(symbol);
    const section = await this.repo.section(company.cik, item);
    // Not read yet is not "not present": the 404 says no 10-K has been read for the issuer.
    if (!section) {
      throw new DomainError(
        'SectionNotExtracted',
        `No 10-K of ${company.symbol} (CIK ${company.cik}) has been read yet, so Item ${item} is unknown (not the same as not present).`,
      );
    }
    return { company, section };
  }
}
