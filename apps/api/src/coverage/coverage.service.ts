import { secRosterCurrentSince, type CoverageRepository, type RosterRepository } from '@app/persistence';
import type { CompanyCoverage } from '@app/resources';
import type { CompaniesService } from '../companies/companies.service';
import { mergeExecutiveSources } from '../executives/executives.service';

/** Coverage reads: the company by symbol (404 when unknown), then one aggregate statement over every read model. */
export class CoverageService {
  constructor(
    private readonly repo: CoverageRepository,
    private readonly rosters: RosterRepository,
    private readonly companies: CompaniesService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(symbol: string): Promise<CompanyCoverage> {
    const company = await this.companies.get(symbol);
    const generatedAt = this.now();
    const currentSince = secRosterCurrentSince(generatedAt);
    const record = await this.repo.forIssuer(company.cik, currentSince);
    // Executives merge the IR-page and Form 4 entries of one person: counted as the executives endpoint
    // merges them (a roster is tens of rows, read only when there is one).
    let executives = { current: 0, total: 0 };
    if (record.rosters.groups.some((g) => g.category === 'executives')) {
      const merged = mergeExecutiveSources(await this.rosters.listAll(company.cik, 'executives', currentSince));
      executives = { current: merged.filter((e) => e.isCurrent).length, total: merged.length };
    }
    return { company, record, executives, generatedAt };
  }
}
