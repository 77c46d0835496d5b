import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCompanyFacts } from '@app/edgar';
import type { FactReport } from '@app/persistence';
import { defaultFixturesDir } from './fixture-server';

export interface CompanyFactReports {
  cik: string;
  entityName: string;
  /** Every report of every value, as the read model serves them from company facts alone. */
  reports: FactReport[];
  /** Concept QName -> the taxonomy's label. */
  labels: Map<string, string>;
}

/**
 * A real company-facts file of `xbrl/` in the fixtures as the read side's reports: one per entry
 * (a value as one filing reported it). For pure specs over the statements and `as_of`; the
 * database path goes through the projection instead.
 */
export function companyFactReports(file: string, fixturesDir = defaultFixturesDir()): CompanyFactReports {
  const facts = parseCompanyFacts(readFileSync(join(fixturesDir, 'xbrl', file)));
  const reports: FactReport[] = [];
  const labels = new Map<string, string>();
  for (const [taxonomy, concepts] of facts.facts) {
    for (const [name, concept] of concepts) {
      const qname = `${taxonomy}:${name}`;
      if (concept.label) labels.set(qname, concept.label);
      for (const [unit, entries] of concept.units) {
        for (const e of entries) {
          reports.push({
            cik: facts.cik,
            concept: qname,
            unit,
            periodStart: e.start ?? null,
            periodEnd: e.end,
            dimensions: {},
            value: String(e.val),
            decimals: null,
            accession: e.accn,
            form: e.form,
            filed: e.filed,
            fiscalYear: e.fy,
            fiscalPeriod: e.fp,
            frame: e.frame ?? null,
            label: null,
            quote: null,
            sources: ['companyfacts'],
            documentUrl: null,
            documentSha256: null,
          });
        }
      }
    }
  }
  return { cik: facts.cik, entityName: facts.entityName, reports, labels };
}
