import type { RosterEntryRecord, RosterRepository } from '@app/persistence';

/** Roster reads: one issuer's roster of one category. */
export class ExecutivesService {
  constructor(private readonly repo: RosterRepository) {}

  async list(cik: string, category: string, currentOnly: boolean, limit: number): Promise<RosterEntryRecord[]> {
    return this.repo.list({ cik, category, currentOnly, limit });
  }
}
