import { parseArgs } from 'node:util';
import { padCik } from '@app/contracts';
import { edgarConfig, kafkaConfig, logConfig } from '@app/config';
import type { z } from 'zod';

/** The `facts` run's environment: EDGAR, Kafka, logs. */
export const factsConfigSchema = edgarConfig.extend(kafkaConfig.shape).extend(logConfig.shape);
export type FactsConfig = z.infer<typeof factsConfigSchema>;

export const FACTS_USAGE = `usage: npm run ingest-sec -- facts [--symbols AAPL:US,GOOGL:US] [--cik 320193,1997711]
  --symbols  listings (TICKER or TICKER:US), resolved to CIKs through SEC's ticker map
  --cik      CIKs (padded or not), for companies the ticker map does not list
  Each company's data.sec.gov company facts -> one xbrl-facts@1 record per concept on edgar.xbrl-facts.v1.
  A company SEC has no facts for (404) is reported, not a failure. For every company at once: facts-bulk.`;

/** One company asked for, as the operator wrote it. */
export type AskedCompany = { asked: string; ticker: string; cik?: never } | { asked: string; cik: string; ticker?: never };

export interface FactsCommand {
  companies: AskedCompany[];
}

/** The command line, or a usage error (exit 2). */
export function parseFactsArgs(argv: readonly string[]): FactsCommand | { help: true } | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { symbols: { type: 'string', multiple: true }, cik: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { help: true };
  const list = (v: string[] | undefined) => (v ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
  const companies: AskedCompany[] = [];
  for (const symbol of list(values.symbols)) {
    const m = /^([A-Za-z0-9.-]+)(?::([A-Za-z]+))?$/.exec(symbol);
    if (!m) return { error: `--symbols: ${JSON.stringify(symbol)} is not TICKER or TICKER:US` };
    if (m[2] && m[2].toUpperCase() !== 'US') return { error: `--symbols: ${symbol}: SEC files for US listings only (TICKER:US)` };
    companies.push({ asked: symbol, ticker: m[1]!.toUpperCase() });
  }
  for (const cik of list(values.cik)) {
    if (!/^\d{1,10}$/.test(cik)) return { error: `--cik: ${JSON.stringify(cik)} is not a CIK` };
    companies.push({ asked: cik, cik: padCik(cik) });
  }
  if (companies.length === 0) return { error: 'name companies with --symbols and/or --cik' };
  return { companies };
}
