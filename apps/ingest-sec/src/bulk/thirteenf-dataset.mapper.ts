import { createHash } from 'node:crypto';
import type { RecordOrigin, ThirteenFHoldingsRecordV1 } from '@app/contracts';
import { decideValueUnit, type ParsedThirteenF, type ThirteenFDatasetFiling, type ThirteenFHolding } from '@app/edgar';
import { thirteenFHoldingsRecords } from '../thirteenf/thirteenf.mapper';

export interface DatasetContext {
  /** The data set's URL: every record's source_url. */
  sourceUrl: string;
  runId: string;
  /** Live discovery or history: the records' origin. */
  origin: RecordOrigin;
  /** When the archive was opened (observed_at). */
  fetchedAt: string;
  extractedAt: string;
}

/**
 * One filing of a data set as the XML parser would give it: header tables + its INFOTABLE rows,
 * the unit decided from its filing date and its own numbers. Pure; RangeError without a filing date.
 */
export function datasetThirteenF(filing: ThirteenFDatasetFiling, holdings: ThirteenFHolding[]): ParsedThirteenF {
  if (!filing.filedDate) throw new RangeError(`13F ${filing.accession}: no FILING_DATE in SUBMISSION`);
  return {
    accession: filing.accession,
    filedDate: filing.filedDate,
    // The data sets carry the filing date only.
    acceptedAt: null,
    primary: filing.primary,
    holdings,
    valueUnit: decideValueUnit(filing.filedDate, filing.primary, holdings),
    primaryFilename: null,
    infoTableFilename: null,
  };
}

/**
 * sha256 of the filing's own lines in the data set (header tables, then INFOTABLE rows as
 * written): the bytes the records come from. Hashing the whole zip would cost a pass over ~1 GB and
 * change every record's source id when SEC republishes the set with one filing amended.
 */
export function datasetFilingHash(filing: ThirteenFDatasetFiling, holdings: readonly ThirteenFHolding[]): string {
  const h = createHash('sha256');
  for (const line of filing.lines) h.update(line).update('\n');
  for (const holding of holdings) h.update(holding.quote).update('\n');
  return `sha256:${h.digest('hex')}`;
}

/** A data-set filing -> its 13f-holdings@1 records, through the follower's own mapper. Pure; RangeError as that mapper throws it. */
export function datasetFilingRecords(filing: ThirteenFDatasetFiling, holdings: ThirteenFHolding[], ctx: DatasetContext): ThirteenFHoldingsRecordV1[] {
  return thirteenFHoldingsRecords(datasetThirteenF(filing, holdings), {
    accession: filing.accession,
    url: ctx.sourceUrl,
    contentHash: datasetFilingHash(filing, holdings),
    fetchedAt: ctx.fetchedAt,
    runId: ctx.runId,
    origin: ctx.origin,
    extractedAt: ctx.extractedAt,
    form: filing.primary.form,
    filedDate: filing.filedDate,
    acceptedAt: null,
  });
}
