import { kafkaConfig } from '@app/config';
import { TOPICS, namespacedTopic } from '@app/contracts';
import { z } from 'zod';

const groupId = z.string().min(1).optional();

/**
 * What `ops` needs: the broker, the topic namespace, the projector's group (as the projector reads
 * them), and the followers' groups when named (`npm run live` writes them to .run/ops.env).
 */
export const operatorConfigSchema = kafkaConfig.extend({
  PROJECTOR_GROUP_ID: z.string().min(1).default('projector'),
  SEGMENTS_GROUP_ID: groupId,
  SECTIONS_GROUP_ID: groupId,
  FORM4_GROUP_ID: groupId,
  NPORT_GROUP_ID: groupId,
  EIGHTK_GROUP_ID: groupId,
  THIRTEENF_GROUP_ID: groupId,
  IR_GROUP_ID: groupId,
  DECKS_GROUP_ID: groupId,
});

export type OperatorConfig = z.infer<typeof operatorConfigSchema>;

/** A follower's consumer group and the record topic it reads. */
export interface FollowerGroup {
  group: string;
  topic: string;
}

/**
 * The followers of the live set, by the variable naming each one's group: `lag` reports every one
 * named, committed or not, so a follower that never started shows its whole topic as lag. A new
 * follower is one row here (and its variable in the schema above).
 */
const FOLLOWERS = [
  { variable: 'SEGMENTS_GROUP_ID', topic: TOPICS.filings, namespaced: false },
  { variable: 'SECTIONS_GROUP_ID', topic: TOPICS.filings, namespaced: false },
  { variable: 'FORM4_GROUP_ID', topic: TOPICS.filings, namespaced: false },
  { variable: 'NPORT_GROUP_ID', topic: TOPICS.filings, namespaced: false },
  { variable: 'EIGHTK_GROUP_ID', topic: TOPICS.filings, namespaced: false },
  { variable: 'THIRTEENF_GROUP_ID', topic: TOPICS.filings, namespaced: false },
  { variable: 'IR_GROUP_ID', topic: TOPICS.companies, namespaced: false },
  // ingest-decks puts its group under the topic namespace (apps/ingest-decks/src/ingest-decks.runner.ts).
  { variable: 'DECKS_GROUP_ID', topic: TOPICS.issuerDocuments, namespaced: true },
] as const;

export function followerGroups(config: OperatorConfig): FollowerGroup[] {
  const namespace = config.KAFKA_TOPIC_NAMESPACE;
  return FOLLOWERS.flatMap((f) => {
    const id = config[f.variable];
    if (!id) return [];
    return [{ group: f.namespaced && namespace ? `${namespace}.${id}` : id, topic: namespacedTopic(f.topic, namespace).name }];
  });
}
