import type { DataSource, EntityManager } from 'typeorm';
import type { RecordEnvelope } from '@app/contracts';
import type { BatchOutcome } from './batch-outcome';
import { projectCompanies } from './company.projection';
import { projectCompanyDescriptions } from './company-description.projection';
import { projectDocumentTexts } from './document-text.projection';
import { projectFilings } from './filing.projection';
import { projectForm4Filings } from './form4.projection';
import { projectFundHoldings } from './fund-holdings.projection';
import { projectIssuerDocuments } from './ir-document.projection';
import { projectIssuerRosters } from './ir-roster.projection';
import { projectSegments } from './segment.projection';
import { projectTenkSections } from './tenk-section.projection';

/** A batch projection; its records were validated against its schema (the map below is keyed by schema). */
export type BatchProjection = (m: EntityManager, envelopes: ReadonlyArray<RecordEnvelope>) => Promise<BatchOutcome>;

/** The batch projection of each record schema: the projector's routing table. */
export const BATCH_PROJECTIONS: Readonly<Record<string, BatchProjection>> = {
  'company@1': projectCompanies as BatchProjection,
  'fund-holdings@1': projectFundHoldings as BatchProjection,
  'filing@1': projectFilings as BatchProjection,
  'segment@1': projectSegments as BatchProjection,
  'ir-roster@1': projectIssuerRosters as BatchProjection,
  'ir-document@1': projectIssuerDocuments as BatchProjection,
  'company-description@1': projectCompanyDescriptions as BatchProjection,
  'document-text@1': projectDocumentTexts as BatchProjection,
  'form4@1': projectForm4Filings as BatchProjection,
  'tenk-section@1': projectTenkSections as BatchProjection,
};

/**
 * Projects records of any schemas in one transaction, schema by schema in order of first
 * appearance, as the projector does with a batch (without the webhook events): for tests, seeds
 * and benches that start from records.
 */
export async function projectRecords(ds: DataSource, envelopes: ReadonlyArray<RecordEnvelope>): Promise<BatchOutcome> {
  const bySchema = new Map<string, RecordEnvelope[]>();
  for (const e of envelopes) {
    if (!BATCH_PROJECTIONS[e.schema]) throw new Error(`no projection for schema ${e.schema}`);
    const group = bySchema.get(e.schema);
    if (group) group.push(e);
    else bySchema.set(e.schema, [e]);
  }
  return ds.transaction(async (m) => {
    const total: BatchOutcome = { inserted: [], updated: [], unchanged: 0 };
    for (const [schema, group] of bySchema) {
      const outcome = await BATCH_PROJECTIONS[schema]!(m, group);
      total.inserted.push(...outcome.inserted);
      total.updated.push(...outcome.updated);
      total.unchanged += outcome.unchanged;
    }
    return total;
  });
}
