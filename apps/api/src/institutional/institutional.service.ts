import { quarterEnd } from '@app/contracts';
import type { HoldersSort, HoldersTarget, InstitutionalHoldersRepository, InstitutionalManagerRow, PortfolioSort } from '@app/persistence';
import { DomainError } from '../platform/api.errors';

/** Which quarter a list serves: the asked one, else the newest with data (null when there is none). */
export interface QuarterChoice {
  period: string | null;
  periods: string[];
}

const choose = (asked: string | undefined, periods: string[]): QuarterChoice => ({ period: asked ? quarterEnd(asked.toUpperCase()) : (periods[0] ?? null), periods });

/** 13F reads: holders of a company or CUSIP, managers and their portfolios. */
export class InstitutionalService {
  constructor(readonly repo: InstitutionalHoldersRepository) {}

  async holdersQuarter(target: HoldersTarget, asked: string | undefined): Promise<QuarterChoice> {
    return choose(asked, await this.repo.holderPeriods(target));
  }

  /** The quarter a holders list as of a day serves: among the quarters some holder had filed by then (holderPeriodsFiledBy). */
  async holdersQuarterAsOf(cik: string, asked: string | undefined, asOf: string): Promise<QuarterChoice> {
    const periods = (await this.repo.holderPeriods({ cik })).filter((p) => p <= asOf);
    return choose(asked, periods.length > 0 ? await this.repo.holderPeriodsFiledBy(cik, periods, asOf) : []);
  }

  holders(target: HoldersTarget, period: string, sort: HoldersSort, page: Parameters<InstitutionalHoldersRepository['holders']>[3]) {
    return this.repo.holders(target, period, sort, page);
  }

  /** The manager, or UnknownInstitution. */
  async manager(cik: string): Promise<InstitutionalManagerRow> {
    const padded = cik.padStart(10, '0');
    const row = await this.repo.manager(padded);
    if (!row) throw new DomainError('UnknownInstitution', `No 13F filer with CIK ${padded} has been ingested.`);
    return row;
  }

  async portfolioQuarter(cik: string, asked: string | undefined): Promise<QuarterChoice> {
    return choose(asked, (await this.repo.quartersOf(cik)).map((q) => q.period));
  }

  portfolio(cik: string, period: string, sort: PortfolioSort, page: Parameters<InstitutionalHoldersRepository['portfolio']>[3]) {
    return this.repo.portfolio(cik, period, sort, page);
  }
}
