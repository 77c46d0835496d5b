/**
 * One report of one XBRL value as the read side serves it: a fact (concept, unit, period,
 * dimensions) as one filing reported it. Read model, camelCase; not an API shape. Dates YYYY-MM-DD.
 */
export interface FactReport {
  cik: string;
  /** QName: us-gaap:Revenues, ifrs-full:Revenue. */
  concept: string;
  unit: string;
  /** Null for an instant. */
  periodStart: string | null;
  periodEnd: string;
  /** Axis QName -> member QName; {} for a consolidated fact. */
  dimensions: Record<string, string>;
  /** Exact decimal text as reported (numeric read back as text). */
  value: string;
  decimals: string | null;
  accession: string;
  form: string;
  filed: string;
  fiscalYear: number | null;
  fiscalPeriod: string | null;
  frame: string | null;
  /** The filer's row label (inline XBRL), else null. */
  label: string | null;
  /** The row text holding the fact (inline XBRL), else null. */
  quote: string | null;
  /** Where the report was read: company facts, the filing's inline XBRL, or both. */
  sources: Array<'companyfacts' | 'inline_xbrl'>;
  /** The inline document read (its URL and sha256), when the report was read from one. */
  documentUrl: string | null;
  documentSha256: string | null;
}

/** What the facts and financials routes ask of the read model. */
export interface FactsQuery {
  cik: string;
  /** Concept QNames; all of the company's concepts when absent. */
  concepts?: readonly string[];
  /** YYYY-MM-DD: only reports filed on or before this day. */
  asOf?: string;
  /** Dimensional facts too (default: consolidated only). */
  dimensioned?: boolean;
}
