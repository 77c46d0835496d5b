import { kafkaConfig } from '@app/config';
import { z } from 'zod';

/** What `ops` needs: the broker, the topic namespace, the projector's group (as the projector reads them). */
export const operatorConfigSchema = kafkaConfig.extend({
  PROJECTOR_GROUP_ID: z.string().min(1).default('projector'),
});

export type OperatorConfig = z.infer<typeof operatorConfigSchema>;
