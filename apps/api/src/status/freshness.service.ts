import type { FilingFreshnessRepository } from '@app/persistence';
import type { FilingFreshness } from '@app/resources';

/** Freshness reads: one statement over the window, stamped with when it was measured. */
export class FreshnessService {
  constructor(
    private readonly repo: FilingFreshnessRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(last: number, form: string | undefined): Promise<FilingFreshness> {
    const normalizedForm = form?.trim().toUpperCase();
    const record = await this.repo.window(last, normalizedForm);
    return { record, last, form: normalizedForm ?? null, measuredAt: this.now() };
  }
}
