import { z } from 'zod';
import { consumerConfig, edgarConfig, kafkaConfig, logConfig } from '@app/config';
import { maxSubmissionBytes } from '../complete-submission.fetcher';

export const eightkConfigSchema = edgarConfig
  .extend(kafkaConfig.shape)
  .extend(consumerConfig.shape)
  .extend(logConfig.shape)
  .extend({
    /** Consumer group when following edgar.filings.v1 (`--follow`). */
    EIGHTK_GROUP_ID: z.string().min(1).default('ingest-sec-eightk'),
    /** Largest complete submission read (see maxSubmissionBytes). */
    EIGHTK_MAX_SUBMISSION_BYTES: maxSubmissionBytes,
  });

export type EightKConfig = z.infer<typeof eightkConfigSchema>;
