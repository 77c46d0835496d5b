import { contentHash, recordId, sourceId, stableStringify, THIRTEENF_SECURITIES_PER_RECORD, type RecordEnvelope, type ThirteenFSecuritiesData } from '@app/contracts';
import type { ThirteenFListedSecurity } from '@app/edgar';
import { PRODUCED_BY, type FetchedSource, type MapContext } from '../company.mapper';
import { SEC_WWW } from '../filings/filing.mapper';

const QUARTER = /^(\d{4})Q([1-4])$/;

/** `2020Q3` -> the list's path on www.sec.gov (`/files/investment/13flist2020q3.pdf`); RangeError on another shape. */
export function thirteenFListPath(quarter: string): string {
  const m = QUARTER.exec(quarter);
  if (!m) throw new RangeError(`a quarter is <yyyy>Q<n>, e.g. 2020Q3; got ${JSON.stringify(quarter)}`);
  return `/files/investment/13flist${m[1]}q${m[2]}.pdf`;
}

/** The quarter a list file's SEC name states (`13flist2020q3.pdf` -> 2020Q3), or null. */
export function quarterOfListFile(name: string): string | null {
  const m = /13flist(\d{4})q([1-4])\.pdf$/i.exec(name);
  return m ? `${m[1]}Q${m[2]}` : null;
}

/** The www.sec.gov URL of a quarter's list (a copy read from disk is cited where SEC publishes it). */
export function thirteenFListUrl(quarter: string): string {
  return `${SEC_WWW}${thirteenFListPath(quarter)}`;
}

/**
 * SEC's Official List of Section 13(f) Securities for a quarter -> 13f-securities@1 records of at
 * most THIRTEENF_SECURITIES_PER_RECORD rows, keyed `<quarter>|<chunk index>` (compacted: a re-read
 * replaces each chunk). Pure. Provenance: the PDF and its hash; no quote (rows are table cells, not
 * a passage of text).
 */
export function thirteenFSecuritiesRecords(
  quarter: string,
  securities: readonly ThirteenFListedSecurity[],
  source: FetchedSource,
  ctx: MapContext,
): Array<RecordEnvelope<ThirteenFSecuritiesData>> {
  const count = Math.max(1, Math.ceil(securities.length / THIRTEENF_SECURITIES_PER_RECORD));
  return Array.from({ length: count }, (_, index) => {
    const data: ThirteenFSecuritiesData = {
      quarter,
      source_url: source.url,
      chunk: { index, count, securities_total: securities.length },
      securities: securities
        .slice(index * THIRTEENF_SECURITIES_PER_RECORD, (index + 1) * THIRTEENF_SECURITIES_PER_RECORD)
        .map((s) => ({ cusip: s.cusip, has_options: s.hasOptions, issuer: s.issuer, description: s.description, status: s.status })),
    };
    const key = `${quarter}|${index}`;
    return {
      schema: '13f-securities@1',
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
        quote: null,
        content_hash: source.contentHash,
        extracted_at: ctx.extractedAt,
      },
      data,
    };
  });
}
