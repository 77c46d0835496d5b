import { contentHash, padCik, recordId, sourceId, stableStringify, xbrlFactsKey, type XbrlFact, type XbrlFactsData, type XbrlFactsRecordV1, type RecordOrigin } from '@app/contracts';
import type { FactsExtraction } from '@app/edgar';
import { PRODUCED_BY, type SegmentFiling, type SegmentSource } from './segment.mapper';

/** The filing a document belongs to, with the day it was filed (from its filing@1 record). */
export type FactsFiling = SegmentFiling & { filedDate: string };

/**
 * The numeric facts of one inline-XBRL document -> xbrl-facts@1 records, one per concept (key
 * `<accession>|<concept>`), facts in document order. Fiscal year and period are the filing's, from
 * its dei facts; frames are SEC's (company facts only): null here. The provenance is the document
 * (URL, sha256); each fact carries its own quote, so the record's own quote is null. Pure.
 */
export function inlineFactsRecordsOf(
  extraction: FactsExtraction,
  filing: FactsFiling,
  source: SegmentSource,
  ctx: { runId: string; origin: RecordOrigin; extractedAt: string },
): XbrlFactsRecordV1[] {
  const cik = padCik(filing.cik);
  const form = filing.form ?? extraction.document.documentType ?? 'unknown';
  const srcId = sourceId(source.url, source.contentHash);
  const byConcept = new Map<string, XbrlFact[]>();
  for (const f of extraction.facts) {
    const facts = byConcept.get(f.concept) ?? [];
    facts.push({
      unit: f.unit,
      period_start: f.startDate,
      period_end: f.endDate,
      dimensions: f.dimensions,
      value: f.value,
      decimals: f.decimals,
      accession: filing.accession,
      form,
      filed: filing.filedDate,
      fiscal_year: extraction.document.fiscalYearFocus,
      fiscal_period: extraction.document.fiscalPeriodFocus,
      frame: null,
      label: f.label,
      quote: f.quote,
    });
    byConcept.set(f.concept, facts);
  }
  return [...byConcept].map(([concept, facts]) => {
    const data: XbrlFactsData = {
      cik,
      entity_name: extraction.document.entityName,
      source: 'inline_xbrl',
      accession: filing.accession,
      document_url: source.url,
      concept,
      concept_label: null,
      concept_description: null,
      facts,
    };
    const key = xbrlFactsKey(data);
    return {
      schema: 'xbrl-facts@1',
      key,
      id: recordId(key, contentHash(stableStringify(data))),
      observed_at: source.fetchedAt,
      produced_by: PRODUCED_BY,
      correlation_id: ctx.runId,
      origin: ctx.origin,
      provenance: {
        src_id: srcId,
        source_provider: 'sec',
        source_url: source.url,
        accession: filing.accession,
        quote: null,
        content_hash: source.contentHash,
        extracted_at: ctx.extractedAt,
      },
      data,
    };
  });
}
