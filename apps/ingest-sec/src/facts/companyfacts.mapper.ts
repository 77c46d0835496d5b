import {
  contentHash,
  recordId,
  sourceId,
  stableStringify,
  xbrlFactsKey,
  type XbrlFact,
  type XbrlFactsData,
  type XbrlFactsRecordV1,
} from '@app/contracts';
import type { CompanyConcept, CompanyFacts } from '@app/edgar';
import { PRODUCED_BY, type FetchedSource, type MapContext } from '../company.mapper';

/**
 * Largest xbrl-facts@1 record published, in bytes of JSON: the broker refuses a message over
 * message.max.bytes (1 MiB by default), and the envelope's headers need room. Measured on the real
 * company facts (../shared/fixtures/xbrl): the biggest concept is Apple's
 * us-gaap:EarningsPerShareDiluted, 330 reports in a ~90 KB record; a concept reaches this bound at
 * about 3,300 reports (~270 bytes each).
 */
export const XBRL_FACTS_MAX_RECORD_BYTES = 900_000;

/** A concept whose record would pass XBRL_FACTS_MAX_RECORD_BYTES: not published, reported by name. */
export interface OversizedConcept {
  concept: string;
  facts: number;
  bytes: number;
}

export interface CompanyFactsRecords {
  records: XbrlFactsRecordV1[];
  /** Concepts refused whole (the key is one per concept: a part of its history would replace the rest on the compacted topic). */
  oversized: OversizedConcept[];
  /** Reports SEC lists without what every fact needs (an accession of another shape, no form): skipped, counted. */
  skippedFacts: number;
}

const ACCESSION_RE = /^\d{10}-\d{2}-\d{6}$/;

/** Where data.sec.gov serves a company's facts (the same file the nightly companyfacts.zip packs). */
export function companyFactsPath(cik: string): string {
  return `/api/xbrl/companyfacts/CIK${cik}.json`;
}

/** The data.sec.gov URL of a companyfacts.zip entry: the archive packs the very files the API serves. */
export function companyFactsEntryUrl(dataBaseUrl: string, entryName: string): string {
  return `${dataBaseUrl.replace(/\/+$/, '')}/api/xbrl/companyfacts/${entryName.slice(entryName.lastIndexOf('/') + 1)}`;
}

/** Every report of one concept, unit by unit in SEC's order; reports without an accession or a form are left out. */
function factsOf(concept: CompanyConcept): { facts: XbrlFact[]; skipped: number } {
  const facts: XbrlFact[] = [];
  let skipped = 0;
  for (const [unit, entries] of concept.units) {
    for (const e of entries) {
      if (!ACCESSION_RE.test(e.accn) || !e.form) {
        skipped += 1;
        continue;
      }
      facts.push({
        unit,
        period_start: e.start ?? null,
        period_end: e.end,
        // Company facts hold consolidated facts only: SEC drops every dimensional one.
        dimensions: {},
        value: e.val,
        decimals: null,
        accession: e.accn,
        form: e.form,
        filed: e.filed,
        fiscal_year: e.fy,
        fiscal_period: e.fp,
        frame: e.frame ?? null,
        label: null,
        quote: null,
      });
    }
  }
  return { facts, skipped };
}

/**
 * A company's facts -> one xbrl-facts@1 record per concept (key `<cik>|<taxonomy>:<concept>`): its
 * whole history, every unit, every filing. Pure. The id depends on the key and the concept's data
 * only, so a concept whose history did not change keeps its id when the company's file changes
 * elsewhere, and a re-run over the same file yields the same ids. Provenance: the company's file and
 * its sha256; no accession (each fact names its filing); the quote is the concept's name as a JSON
 * string, which is how it stands in the file.
 */
export function companyFactsRecords(company: CompanyFacts, source: FetchedSource, ctx: MapContext): CompanyFactsRecords {
  const records: XbrlFactsRecordV1[] = [];
  const oversized: OversizedConcept[] = [];
  let skippedFacts = 0;
  for (const [taxonomy, concepts] of company.facts) {
    for (const [name, concept] of concepts) {
      const { facts, skipped } = factsOf(concept);
      skippedFacts += skipped;
      if (facts.length === 0) continue;
      const data: XbrlFactsData = {
        cik: company.cik,
        entity_name: company.entityName,
        source: 'companyfacts',
        accession: null,
        document_url: null,
        concept: `${taxonomy}:${name}`,
        concept_label: concept.label,
        concept_description: concept.description,
        facts,
      };
      const key = xbrlFactsKey(data);
      const record: XbrlFactsRecordV1 = {
        schema: 'xbrl-facts@1',
        key,
        id: recordId(key, contentHash(stableStringify(data))),
        observed_at: source.fetchedAt,
        produced_by: PRODUCED_BY,
        correlation_id: ctx.runId,
        origin: ctx.origin,
        provenance: {
          src_id: sourceId(source.url, source.contentHash),
          source_provider: 'sec',
          source_url: source.url,
          accession: null,
          quote: JSON.stringify(name),
          content_hash: source.contentHash,
          extracted_at: ctx.extractedAt,
        },
        data,
      };
      const bytes = Buffer.byteLength(JSON.stringify(record));
      if (bytes > XBRL_FACTS_MAX_RECORD_BYTES) oversized.push({ concept: data.concept, facts: facts.length, bytes });
      else records.push(record);
    }
  }
  return { records, oversized, skippedFacts };
}
