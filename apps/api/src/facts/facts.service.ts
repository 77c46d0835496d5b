import type { CompanyRecord, FactConcept, XbrlFactsRepository } from '@app/persistence';
import { buildStatement, LINE_ITEM_CONCEPTS, latestReports, periodKind, reportHistory, valueKey, type BuiltStatement, type FactPeriod, type ReportInHistory, type StatementKind, type StatementPeriod } from '@app/resources';
import type { CompaniesService } from '../companies/companies.service';
import { DomainError } from '../platform/api.errors';

/** Taxonomies a bare concept name is looked up in, in order. */
const TAXONOMIES = ['us-gaap', 'ifrs-full', 'dei'] as const;

export interface FactsRequest {
  concept: string;
  period: FactPeriod;
  asOf?: string;
  history: boolean;
  dimensioned: boolean;
}

export interface FactsAnswer {
  company: CompanyRecord;
  concept: FactConcept;
  /** history: every report; else each value's latest report, with its status in its history. */
  items: ReportInHistory[];
}

/** The QNames a requested concept may be: itself, or a bare name in each taxonomy, in order. */
export function conceptCandidates(asked: string): string[] {
  return asked.includes(':') ? [asked] : TAXONOMIES.map((t) => `${t}:${asked}`);
}

/** The first candidate the company reported, if any. */
export function firstReported(candidates: readonly string[], reported: readonly FactConcept[]): FactConcept | null {
  const byName = new Map(reported.map((c) => [c.concept, c]));
  for (const qname of candidates) {
    const found = byName.get(qname);
    if (found) return found;
  }
  return null;
}

/** The 404 for a concept the company never reported, naming close ones among `concepts` (the QNames of all it reported). */
export function unknownConcept(asked: string, concepts: readonly string[], symbol: string): DomainError {
  const candidates = conceptCandidates(asked);
  const local = asked.slice(asked.indexOf(':') + 1).toLowerCase();
  const close = concepts.filter((c) => c.toLowerCase().includes(local) || local.includes(c.slice(c.indexOf(':') + 1).toLowerCase())).slice(0, 8);
  const hint = close.length ? ` Close concepts it reported: ${close.join(', ')}.` : '';
  return new DomainError(
    'UnknownConcept',
    `${symbol} reported no fact of ${candidates.join(' or ')} (of ${concepts.length} concepts read).${hint} GET /v1/companies/${symbol}/financials names the concept of every standard line item.`,
  );
}

/** XBRL facts and the statements built from them: the company by symbol (404 when unknown), then its reports. */
export class FactsService {
  constructor(
    private readonly repo: XbrlFactsRepository,
    private readonly companies: CompaniesService,
  ) {}

  async facts(symbol: string, q: FactsRequest): Promise<FactsAnswer> {
    const company = await this.companies.get(symbol);
    const candidates = conceptCandidates(q.concept);
    const concept = firstReported(candidates, await this.repo.concepts(company.cik, candidates));
    if (!concept) throw unknownConcept(q.concept, await this.repo.conceptNames(company.cik), symbol);
    const reports = await this.repo.reports({ cik: company.cik, concepts: [concept.concept], asOf: q.asOf, dimensioned: q.dimensioned });
    const history = reportHistory(reports).filter((h) => q.period === 'all' || periodKind(h.report) === q.period);
    if (q.history) return { company, concept, items: history };
    // A value's latest report is the last of its history (oldest first).
    const latest = new Map<string, ReportInHistory>();
    for (const h of history) latest.set(valueKey(h.report), h);
    return { company, concept, items: [...latest.values()] };
  }

  async statement(symbol: string, statement: StatementKind, period: StatementPeriod, asOf: string | undefined, limit: number): Promise<{ company: CompanyRecord; built: BuiltStatement }> {
    const company = await this.companies.get(symbol);
    const [reports, conceptLabels] = await Promise.all([
      this.repo.reports({ cik: company.cik, concepts: LINE_ITEM_CONCEPTS, asOf }),
      this.repo.conceptLabels(company.cik, LINE_ITEM_CONCEPTS),
    ]);
    return { company, built: buildStatement(latestReports(reports, asOf), statement, period, { limit, conceptLabels }) };
  }
}
