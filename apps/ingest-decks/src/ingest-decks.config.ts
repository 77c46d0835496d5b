import { z } from 'zod';
import { consumerConfig, kafkaConfig, logConfig, opsConfig } from '@app/config';

export const ingestDecksConfigSchema = kafkaConfig.extend(consumerConfig.shape).extend(logConfig.shape).extend(opsConfig.shape).extend({
  // One PDF a batch: a permanent rejection re-runs the rest of a split batch, and slow downloads gain nothing from batching.
  CONSUMER_BATCH_MAX_RECORDS: consumerConfig.shape.CONSUMER_BATCH_MAX_RECORDS.removeDefault().default(1).describe('Most ir-document records handed to the handler at once'),
  DECKS_USER_AGENT: z
    .string()
    .regex(/\S+ \S+@\S+/, 'must name the company and a contact e-mail (e.g. "Acme Data ops@acme.example")')
    .describe('Declared User-Agent sent to issuer sites when downloading PDFs'),
  DECKS_MAX_BYTES: z.coerce.number().int().min(1).default(50 * 1024 * 1024).describe('Largest PDF downloaded (bytes); a larger one is dead-lettered'),
  DECKS_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000).describe('Whole download (headers and body) of one PDF'),
  DECKS_FETCH_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3).describe('Tries of a download failing with 5xx/429/timeout/network before it is dead-lettered'),
  DECKS_ALLOW_PRIVATE_HOSTS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe(
      'Lets PDF URLs (and their redirects) reach loopback, private and link-local addresses. Off in production: the URLs come from third-party pages. The tests and scripts/run.sh set it to true because their fixture server listens on 127.0.0.1',
    ),
  DECKS_GROUP_ID: z.string().min(1).default('ingest-decks').describe('Consumer group on ir.documents.v1 (prefixed with KAFKA_TOPIC_NAMESPACE when one is set)'),
});

export type IngestDecksConfig = z.infer<typeof ingestDecksConfigSchema>;
