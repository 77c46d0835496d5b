import type { IrSitePages, IrSiteSource, IrSiteStatus, Provenance } from '@app/contracts';
import { char, jsonb, text, timestamptz, table, type RowOf } from '../table';

/**
 * Where each issuer's IR site is, or why none was crawled (ir.sites.v1), by CIK: the latest outcome
 * replaces the row. Written only by the projector; coverage reads it to say why an issuer has no IR
 * documents or contacts.
 */
export const IR_SITES_TABLE = table('ir_sites', ['cik'], {
  cik: char(10),
  ticker: text().nullable(),
  name: text(),
  status: text<IrSiteStatus>(),
  source: text<IrSiteSource>().nullable(),
  start_url: text().nullable(),
  landing_url: text().nullable(),
  pages: jsonb<IrSitePages>(),
  detail: text().nullable(),
  checked_at: timestamptz(),
  provenance: jsonb<Provenance>(),
  record_id: text(),
  observed_at: timestamptz(),
  updated_at: timestamptz().default('now()'),
});

/** An issuer's IR site outcome as coverage reads it (read model, camelCase; not an API shape). */
export type IrSiteRecord = RowOf<typeof IR_SITES_TABLE.columns, 'status' | 'source' | 'landing_url' | 'detail' | 'checked_at'>;
