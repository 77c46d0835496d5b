import { z } from 'zod';
import { consumerConfig, edgarConfig, kafkaConfig, logConfig } from '@app/config';

/** One N-PORT filing to ingest: the filer's CIK and the accession number. */
export interface NportFilingRef {
  cik: string;
  accession: string;
}

const FILING = /^(\d{1,10}):(\d{10}-\d{2}-\d{6})$/;

/** `<cik>:<accession>` -> a filing reference, or null when malformed. */
export function parseFilingRef(token: string): NportFilingRef | null {
  const m = FILING.exec(token.trim());
  return m ? { cik: m[1]!.padStart(10, '0'), accession: m[2]! } : null;
}

const filingList = z
  .string()
  .refine((s) => s.split(',').map((t) => t.trim()).filter(Boolean).every((t) => parseFilingRef(t) !== null), {
    message: 'a comma list of <cik>:<accession> (e.g. 2230:0000002230-23-000034)',
  })
  .transform((s) => s.split(',').map((t) => t.trim()).filter(Boolean).map((t) => parseFilingRef(t)!));

export const nportConfigSchema = edgarConfig
  .extend(kafkaConfig.shape)
  .extend(consumerConfig.shape)
  .extend(logConfig.shape)
  .extend({
    /** Filings to ingest (the entry point adds every `--filing <cik>:<accession>` argument). */
    NPORT_FILINGS: filingList.default([]),
    /**
     * Fund registrant CIKs whose latest NPORT-P filings are found in their submissions JSON
     * (`filings.recent`) and ingested, on top of NPORT_FILINGS.
     */
    NPORT_DISCOVER: z
      .string()
      .default('')
      .refine((s) => s.split(',').map((t) => t.trim()).filter(Boolean).every((t) => /^\d{1,10}$/.test(t)), { message: 'a comma list of CIKs' })
      .transform((s) => s.split(',').map((t) => t.trim()).filter(Boolean).map((t) => t.padStart(10, '0'))),
    /** How many of each discovered registrant's latest NPORT-P filings (one per series and month). */
    NPORT_DISCOVER_LATEST: z.coerce.number().int().min(1).max(100).default(1),
    /** Consumer group when following edgar.filings.v1 (`--follow`). */
    NPORT_GROUP_ID: z.string().min(1).default('ingest-sec-nport'),
    /**
     * CIKs or tickers whose submissions JSON is fetched for the issuer's LEI, so holdings can match
     * by LEI (SEC rarely fills it); empty: match by ticker and issuer name only.
     */
    NPORT_LEI_COMPANIES: z.string().default('').transform((s) => s.split(',').map((t) => t.trim().toUpperCase()).filter(Boolean)),
  });

export type NportConfig = z.infer<typeof nportConfigSchema>;
