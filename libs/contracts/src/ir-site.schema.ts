import { z } from 'zod';
import { envelopeSchema } from './envelope.schema';

const cik = z.string().regex(/^\d{10}$/).describe('10-digit zero-padded SEC CIK of the issuer');
const url = z.string().url();

/**
 * found: the IR landing page was read. no_website: SEC lists no website and the operator none.
 * robots_disallowed: robots.txt forbids the page the crawl needed (homepage or landing page).
 * no_ir_page: the homepage was read and links no IR page. fetch_failed: the page did not load.
 */
export const IR_SITE_STATUSES = ['found', 'no_website', 'robots_disallowed', 'no_ir_page', 'fetch_failed'] as const;
/**
 * Where the crawl target came from: the operator's registry (IR_SITES / IR_SITES_FILE), SEC's
 * submissions JSON (investorWebsite, website), or the IR website the issuer's newest 10-K names in
 * Item 1 ("Available Information").
 */
export const IR_SITE_SOURCES = ['operator', 'investor_website', 'tenk_available_information', 'website'] as const;

export const irSitePagesSchema = z
  .object({
    contact: z.array(url),
    management: z.array(url),
    presentations: z.array(url),
    press: z.array(url),
    reports: z.array(url),
  })
  .describe('Pages read after the landing page, by the role they were found (or configured) as');

/** ir.sites.v1 data: where an issuer's IR site is, or why none was crawled. Key: the CIK. */
export const irSiteDataSchema = z.object({
  cik,
  ticker: z.string().nullable().describe('Ticker of the company record (or the registry entry)'),
  name: z.string().min(1).describe('Issuer name'),
  status: z.enum(IR_SITE_STATUSES),
  source: z.enum(IR_SITE_SOURCES).nullable().describe('Where the crawl target came from; null for no_website'),
  start_url: url.nullable().describe('The URL the crawl started from: the registry landing page, investor_website, the IR website the 10-K names, or the homepage (website); null for no_website'),
  landing_url: url.nullable().describe('The IR landing page: found, or the one that failed; null when none was found'),
  pages: irSitePagesSchema,
  detail: z.string().nullable().describe('Why, for every status but found: the error, the page disallowed, ...'),
  checked_at: z.string().datetime({ offset: true }).describe('When the crawler decided this outcome'),
});

export type IrSiteStatus = (typeof IR_SITE_STATUSES)[number];
export type IrSiteSource = (typeof IR_SITE_SOURCES)[number];
export type IrSitePages = z.infer<typeof irSitePagesSchema>;
export type IrSiteData = z.infer<typeof irSiteDataSchema>;

export const irSiteRecordV1 = envelopeSchema('ir-site@1', irSiteDataSchema);
export type IrSiteRecordV1 = z.infer<typeof irSiteRecordV1>;
