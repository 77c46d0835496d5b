import { loadOperatorConfig } from '@app/config';
import { consumerLag } from '@app/messaging';
import { namespacedTopic } from '@app/contracts';
import { projectorConfigSchema } from './projector.config';
import { PROJECTED_TOPICS } from './projector.runner';

/**
 * Prints the projector group's lag per partition and in total; exits 0 when it has caught up
 * (every partition committed up to its end), 1 otherwise. Used by scripts/run.sh, and by operators.
 */
async function main(): Promise<number> {
  const config = loadOperatorConfig(projectorConfigSchema);
  const topics = PROJECTED_TOPICS.map((t) => namespacedTopic(t, config.KAFKA_TOPIC_NAMESPACE));
  const lag = await consumerLag({ brokers: config.KAFKA_BROKERS, clientId: 'projector-lag', logLevel: 'nothing' }, config.PROJECTOR_GROUP_ID, topics);
  const total = lag.reduce((n, p) => n + p.lag, 0);
  const caughtUp = total === 0;
  for (const p of lag) console.log(`${p.topic}[${p.partition}] committed=${p.committed ?? '-'} end=${p.high} lag=${p.lag}`);
  console.log(`total lag ${total}${caughtUp ? ' (caught up)' : ''}`);
  return caughtUp ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  },
);
