import { z } from 'zod';
import { consumerConfig, edgarConfig, kafkaConfig, logConfig } from '@app/config';
import { maxSubmissionBytes } from '../complete-submission.fetcher';

export const thirteenfConfigSchema = edgarConfig
  .extend(kafkaConfig.shape)
  .extend(consumerConfig.shape)
  .extend(logConfig.shape)
  .extend({
    /** Consumer group when following edgar.filings.v1 (`13f --follow`). */
    THIRTEENF_GROUP_ID: z.string().min(1).default('ingest-sec-13f'),
    /** Largest complete submission read (see maxSubmissionBytes). */
    THIRTEENF_MAX_SUBMISSION_BYTES: maxSubmissionBytes,
  });

export type ThirteenFConfig = z.infer<typeof thirteenfConfigSchema>;
