import type { Element } from 'domhandler';
import { contentHash, recordId, sourceId, stableStringify, xbrlFactsKey, type XbrlFact, type XbrlFactsData, type XbrlFactsRecordV1 } from '@app/contracts';
import { documentInfoOf, factValue, normalizeWhitespace, parseCompanyFacts, parseIxbrl, textContent } from '@app/edgar';

/*
 * xbrl-facts@1 records from real files, for tests and benches of the read model: the ingestion's
 * own mapper lives in apps/ingest-sec, which libs may not import. Ids, src_id and hashes are made
 * with the contracts' helpers as the ingestors make them.
 */

/** Where and when a file was read. */
export interface FactsSource {
  url: string;
  fetchedAt: string;
}

function envelope(data: XbrlFactsData, bytes: Uint8Array | string, source: FactsSource, quote: string | null): XbrlFactsRecordV1 {
  const key = xbrlFactsKey(data);
  const hash = contentHash(bytes);
  return {
    schema: 'xbrl-facts@1',
    key,
    id: recordId(key, contentHash(stableStringify(data))),
    observed_at: source.fetchedAt,
    produced_by: 'test-builder',
    correlation_id: 'run_test_builder',
    origin: 'live',
    provenance: {
      src_id: sourceId(source.url, hash),
      source_provider: 'sec',
      source_url: source.url,
      accession: data.accession,
      quote,
      content_hash: hash,
      extracted_at: source.fetchedAt,
    },
    data,
  };
}

/** A company-facts file -> one record per concept (every unit, every filing), in file order. */
export function companyFactsRecords(bytes: Uint8Array | string, source: FactsSource): XbrlFactsRecordV1[] {
  const file = parseCompanyFacts(bytes);
  const records: XbrlFactsRecordV1[] = [];
  for (const [taxonomy, concepts] of file.facts) {
    for (const [name, concept] of concepts) {
      const facts: XbrlFact[] = [];
      for (const [unit, entries] of concept.units) {
        for (const e of entries) {
          facts.push({
            unit,
            period_start: e.start ?? null,
            period_end: e.end,
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
      if (facts.length === 0) continue;
      const data: XbrlFactsData = {
        cik: file.cik,
        entity_name: file.entityName,
        source: 'companyfacts',
        accession: null,
        document_url: null,
        concept: `${taxonomy}:${name}`,
        concept_label: concept.label,
        concept_description: concept.description,
        facts,
      };
      records.push(envelope(data, bytes, source, null));
    }
  }
  return records;
}

/** The filing an inline document belongs to (what the filings topic says of it). */
export interface InlineFiling {
  cik: string;
  accession: string;
  form: string;
  filed: string;
}

function rowOf(el: Element): Element | null {
  for (let p = el.parent; p; p = p.parent) if ((p as Element).name === 'tr') return p as Element;
  return null;
}

/** The first cell with text in a table row: the filer's label as printed. */
function rowLabel(tr: Element): string | null {
  for (const cell of tr.children) {
    if ((cell as Element).name !== 'td') continue;
    const t = normalizeWhitespace(textContent(cell));
    if (t) return t;
  }
  return null;
}

/**
 * An inline XBRL document -> the record of one concept: its numeric facts, each with its unit,
 * period, dimensions, the filer's row label and the row as quote (the document's text).
 */
export function inlineFactsRecord(bytes: Buffer, filing: InlineFiling, concept: string, source: FactsSource): XbrlFactsRecordV1 {
  const doc = parseIxbrl(bytes);
  const info = documentInfoOf(doc);
  const facts: XbrlFact[] = [];
  for (const f of doc.facts) {
    if (f.concept !== concept || f.nil || !f.unitRef) continue;
    const context = doc.contexts.get(f.contextRef);
    if (!context) continue;
    const tr = rowOf(f.element);
    facts.push({
      unit: doc.units.get(f.unitRef) ?? f.unitRef,
      period_start: context.instant ? null : context.startDate,
      period_end: context.endDate,
      dimensions: Object.fromEntries(context.dimensions.map((d) => [d.axis, d.member])),
      value: factValue(f.text, f),
      decimals: f.decimals,
      accession: filing.accession,
      form: filing.form,
      filed: filing.filed,
      fiscal_year: info.fiscalYearFocus,
      fiscal_period: info.fiscalPeriodFocus,
      frame: null,
      label: tr ? rowLabel(tr) : null,
      quote: tr ? normalizeWhitespace(textContent(tr)) : normalizeWhitespace(f.text),
    });
  }
  const data: XbrlFactsData = {
    cik: filing.cik,
    entity_name: null,
    source: 'inline_xbrl',
    accession: filing.accession,
    document_url: source.url,
    concept,
    concept_label: null,
    concept_description: null,
    facts,
  };
  return envelope(data, bytes, source, null);
}
