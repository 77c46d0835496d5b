import { answerArgumentless, loadOperatorConfig } from '@app/config';
import { consumerLag } from '@app/messaging';
import { namespacedTopic } from '@app/contracts';
import { projectorConfigSchema } from './projector.config';
import { PROJECTED_TOPICS } from './projector.runner';

const USAGE = `usage: node dist/apps/projector/src/lag.cli.js   (no arguments; settings from the environment, then .run/*.env)
  The projector group's lag per partition and in total (npm run ops -- lag: every group, dead letters).
  Exit codes: 0 caught up, 1 failed (broker), 2 bad input, 4 not caught up (as ops lag --max-lag 0).`;

/**
 * Prints the projector group's lag per partition and in total; exits 0 when it has caught up
 * (every partition committed up to its end), 4 when not (the code `ops lag` uses for lag above its
 * bound). Used by scripts/run.sh, and by operators.
 */
async function main(): Promise<number> {
  const answered = answerArgumentless('projector lag', process.argv.slice(2), USAGE);
  if (answered !== null) return answered;
  const config = loadOperatorConfig(projectorConfigSchema);
  const topics = PROJECTED_TOPICS.map((t) => namespacedTopic(t, config.KAFKA_TOPIC_NAMESPACE));
  const lag = await consumerLag({ brokers: config.KAFKA_BROKERS, clientId: 'projector-lag', logLevel: 'nothing' }, config.PROJECTOR_GROUP_ID, topics);
  const total = lag.reduce((n, p) => n + p.lag, 0);
  const caughtUp = total === 0;
  for (const p of lag) console.log(`${p.topic}[${p.partition}] committed=${p.committed ?? '-'} end=${p.high} lag=${p.lag}`);
  console.log(`total lag ${total}${caughtUp ? ' (caught up)' : ''}`);
  return caughtUp ? 0 : 4;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
