import { z } from 'zod';
import { ConfigError, consumerConfig, kafkaConfig, logConfig } from '@app/config';
import { DOCUMENT_KINDS, padCik } from '@app/contracts';

const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');

/** One issuer in the IR registry: where its IR site is, and optional hints the crawler cannot discover. */
export const irSiteSchema = z
  .object({
    cik: z
      .union([z.string().regex(/^\d{1,10}$/, 'digits only, at most 10'), z.number().int().positive()])
      .transform((c) => padCik(c)),
    ticker: z.string().min(1).nullable().default(null),
    name: z.string().min(1).describe('Company name as the site prints it (matched against contact blocks)'),
    landing_url: httpUrl,
    pages: z
      .object({
        contact: httpUrl.optional(),
        management: httpUrl.optional(),
        presentations: httpUrl.optional(),
        press: z.array(httpUrl).optional(),
      })
      .strict()
      .default({}),
    /** Documents the site does not link (known URLs): published as ir-document@1 like linked ones. */
    documents: z
      .array(
        z
          .object({
            url: httpUrl,
            title: z.string().min(1),
            kind: z.enum(DOCUMENT_KINDS),
            published_on: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD').optional(),
          })
          .strict(),
      )
      .default([]),
  })
  .strict();

export type IrSite = z.infer<typeof irSiteSchema>;

export const irSitesSchema = z.array(irSiteSchema).superRefine((sites, ctx) => {
  const seen = new Set<string>();
  sites.forEach((s, i) => {
    if (seen.has(s.cik)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [i, 'cik'], message: `CIK ${s.cik} is listed twice` });
    seen.add(s.cik);
  });
});

export const ingestIrConfigSchema = kafkaConfig.extend(logConfig.shape).extend(consumerConfig.shape).extend({
  /** Declared User-Agent: a product token and a way to reach the operator (e-mail or URL). */
  IR_USER_AGENT: z
    .string()
    .regex(/^\S+.*(?:@|https?:\/\/)\S+/, 'must name the crawler and a contact (e.g. "FilingsPlatformBot/1.0 (+ops@filings.example)")'),
  /** Registry as JSON (an array of sites); or IR_SITES_FILE, a path to that JSON. */
  IR_SITES: z.string().optional(),
  IR_SITES_FILE: z.string().min(1).optional(),
  IR_MAX_RPS_PER_HOST: z.coerce.number().positive().max(10).default(1),
  IR_TIMEOUT_MS: z.coerce.number().int().min(100).default(20_000),
  IR_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  IR_BACKOFF_MS: z.coerce.number().int().min(0).default(1000),
  IR_MAX_PAGE_BYTES: z.coerce.number().int().min(1024).default(5 * 1024 * 1024),
  /** Pages read per site, the landing page included. */
  IR_MAX_PAGES_PER_SITE: z.coerce.number().int().min(1).max(50).default(10),
  /**
   * Fetch pages on loopback / private / link-local addresses (default false). Only for tests and
   * local runs serving fixtures on 127.0.0.1: IR pages and their redirects are third-party input.
   */
  IR_ALLOW_PRIVATE_HOSTS: z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** JSON file keeping ETag / Last-Modified / content hash per page between runs (optional). */
  IR_STATE_FILE: z.string().min(1).optional(),
  /** Consumer group of `--follow` (edgar.companies.v1). */
  IR_GROUP_ID: z.string().min(1).default('ingest-ir'),
  /** `--follow` recrawls each site it knows this often (conditional GET: an unchanged site publishes nothing). */
  IR_RECRAWL_INTERVAL_H: z.coerce.number().positive().default(24),
});

export type IngestIrEnvironment = z.infer<typeof ingestIrConfigSchema>;
export interface IngestIrConfig extends IngestIrEnvironment {
  sites: IrSite[];
}

/**
 * Environment -> typed config with the parsed registry. Every problem (variables and registry
 * entries alike) is reported in one ConfigError. `readFile` is the one I/O, injected for tests.
 */
export function loadIngestIrConfig(env: NodeJS.ProcessEnv, readFile: (path: string) => string): IngestIrConfig {
  const problems: string[] = [];
  const base = ingestIrConfigSchema.safeParse(env);
  if (!base.success) problems.push(...base.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  let text: string | undefined = env.IR_SITES;
  let origin = 'IR_SITES';
  if (env.IR_SITES && env.IR_SITES_FILE) problems.push('IR_SITES, IR_SITES_FILE: give one of them, not both');
  else if (env.IR_SITES_FILE) {
    origin = `IR_SITES_FILE (${env.IR_SITES_FILE})`;
    try {
      text = readFile(env.IR_SITES_FILE);
    } catch (error) {
      problems.push(`${origin}: cannot read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  let sites: IrSite[] = [];
  if (text !== undefined && text.trim()) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      problems.push(`${origin}: not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (json !== undefined) {
      const parsed = irSitesSchema.safeParse(json);
      if (parsed.success) sites = parsed.data;
      else problems.push(...parsed.error.issues.map((i) => `${origin}[${i.path.join('.')}]: ${i.message}`));
    }
  }
  if (problems.length > 0 || !base.success) throw new ConfigError(problems);
  return { ...base.data, sites };
}
