import { z } from 'zod';
import { provenanceSchema } from './provenance.schema';

/**
 * How the producer came to the source: `live` when it discovered it as new (the live poller, a
 * follower of a live record, a crawl finding a new link), `backfill` when it read history (bulk
 * archives, a company's or a quarter's backfill, a follower of a backfilled record). Only live
 * records make webhook events: history is not news (the /docs/webhooks page, README).
 */
export const recordOriginSchema = z.enum(['live', 'backfill']);
export type RecordOrigin = z.infer<typeof recordOriginSchema>;

/**
 * The one envelope of every Kafka record. `key` is the Kafka message key; `id` is derived from
 * the natural key and the content hash, so re-ingesting the same source yields the same id.
 */
export function envelopeSchema<S extends string, D extends z.ZodTypeAny>(schemaId: S, data: D) {
  return z.object({
    schema: z.literal(schemaId).describe('<type>@<version> of `data`'),
    key: z.string().min(1).describe('Natural key; also the Kafka message key'),
    id: z.string().regex(/^rec_[0-9a-f]{32}$/).describe('Deterministic id: hash of key + content hash'),
    observed_at: z.string().datetime({ offset: true }).describe('When the ingestor observed the source'),
    produced_by: z.string().min(1).describe('The app that produced the record'),
    correlation_id: z.string().min(1).describe('Id of the ingestion run that produced the record'),
    // Records produced before the field existed were all announced: they read as live.
    origin: recordOriginSchema.default('live').describe('live: discovered as new; backfill: history, which makes no webhook event'),
    provenance: provenanceSchema,
    data,
  });
}

export interface RecordEnvelope<D = unknown> {
  schema: string;
  key: string;
  id: string;
  observed_at: string;
  produced_by: string;
  correlation_id: string;
  origin: RecordOrigin;
  provenance: z.infer<typeof provenanceSchema>;
  data: D;
}
