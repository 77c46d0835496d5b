import 'reflect-metadata';
import { answerArgumentless, loadConfig } from '@app/config';
import { projectorConfigSchema } from './projector.config';
import { startProjector } from './projector.runner';

const USAGE = `usage: node dist/apps/projector/src/main.js   (no arguments; settings from the environment)
  Projects the record topics into the read models until SIGINT/SIGTERM (the batch in flight finishes).
  Needs DATABASE_URL and KAFKA_BROKERS; PROJECTOR_GROUP_ID names its group (default projector).
  PROJECTOR_EVENTS=live (default) makes webhook events and relays them to webhooks.events.v1;
  log (a replay into a fresh database) makes none and inserts the logged events instead.
  Exit codes: 0 stopped, 1 failed, 2 bad input.`;

/** Worker app: a Nest microservice on the Kafka batch transport; SIGTERM/SIGINT finish the batch in flight. */
async function bootstrap(): Promise<void> {
  const answered = answerArgumentless('projector', process.argv.slice(2), USAGE);
  if (answered !== null) process.exit(answered);
  const projector = await startProjector(loadConfig(projectorConfigSchema));
  const shutdown = (): void => {
    projector.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err instanceof Error ? err.message : err);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

bootstrap().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
