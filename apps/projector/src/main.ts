import 'reflect-metadata';
import { loadConfig } from '@app/config';
import { projectorConfigSchema } from './projector.config';
import { startProjector } from './projector.runner';

/** Worker app: a Nest microservice on the Kafka batch transport; SIGTERM/SIGINT finish the batch in flight. */
async function bootstrap(): Promise<void> {
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
