import { z } from 'zod';
import { edgarConfig, kafkaConfig, logConfig } from '@app/config';

/** `all`, `none`, or a list of tickers and/or CIKs (case-insensitive; CIKs padded or not). */
import type { CompanySelector } from '@app/edgar';

export type { CompanySelector };

function parseSelector(raw: string): CompanySelector {
  const value = raw.trim().toLowerCase();
  if (value === 'all') return { kind: 'all' };
  if (value === 'none') return { kind: 'none' };
  const tickers = new Set<string>();
  const ciks = new Set<string>();
  for (const token of raw.split(',').map((t) => t.trim()).filter(Boolean)) {
    if (/^\d{1,10}$/.test(token)) ciks.add(token.replace(/^0+/, '').padStart(10, '0'));
    else tickers.add(token.toUpperCase());
  }
  return { kind: 'list', tickers, ciks };
}

const selector = (what: string) =>
  z
    .string()
    .refine((s) => s.trim().length > 0 && s.split(',').every((t) => t.trim() === '' || /^[A-Za-z0-9.-]+$/.test(t.trim())), {
      message: `${what}: "all", "none" or a comma list of tickers / CIKs`,
    })
    .transform(parseSelector);

export const ingestSecConfigSchema = edgarConfig
  .extend(kafkaConfig.shape)
  .extend(logConfig.shape)
  .extend({
    /** Which companies are published. */
    SEC_COVERAGE: selector('SEC_COVERAGE').default(parseSelector('all')),
    /**
     * Which covered companies get their submissions JSON fetched (company detail). Unset: the
     * coverage list itself, or `none` when coverage is `all` (all ~10,000 issuers at 10 requests/s
     * is a 17-minute run: ask for it explicitly with SEC_SUBMISSIONS=all).
     */
    SEC_SUBMISSIONS: selector('SEC_SUBMISSIONS').optional(),
    /** `exchange` (company_tickers_exchange.json, falls back to plain when 404/invalid) or `plain`. */
    SEC_TICKER_MAP: z.enum(['exchange', 'plain']).default('exchange'),
    /** Progress log every N companies. */
    SEC_PROGRESS_EVERY: z.coerce.number().int().min(1).default(1000),
    /** Parallel submissions fetches (the shared limiter still caps requests per second). */
    SEC_CONCURRENCY: z.coerce.number().int().min(1).max(10).default(4),
    /** Where a run that stopped on a broker outage records how far it got; the same command resumes from it. */
    SEC_CHECKPOINT: z.string().min(1).default('.run/checkpoints/ingest-sec-companies.json'),
  })
  .transform((c) => ({
    ...c,
    SEC_SUBMISSIONS: c.SEC_SUBMISSIONS ?? (c.SEC_COVERAGE.kind === 'all' ? ({ kind: 'none' } as const) : c.SEC_COVERAGE),
  }));

export type IngestSecConfig = z.infer<typeof ingestSecConfigSchema>;

/** Whether a selector picks the company (any of its tickers, or its CIK). */
export function selects(selector: CompanySelector, cik: string, ticker: string): boolean {
  switch (selector.kind) {
    case 'all':
      return true;
    case 'none':
      return false;
    case 'list':
      return selector.ciks.has(cik) || selector.tickers.has(ticker.toUpperCase());
  }
}
