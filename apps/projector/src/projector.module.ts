import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { loadConfig } from '@app/config';
import { projectorConfigSchema, type ProjectorConfig } from './projector.config';
import { startProjector, type RunningProjector } from './projector.runner';

export const PROJECTOR_CONFIG = Symbol('PROJECTOR_CONFIG');

/** Starts the projector with the application and stops it (in-flight record first) on shutdown. */
@Injectable()
export class ProjectorLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private running: RunningProjector | undefined;

  constructor(@Inject(PROJECTOR_CONFIG) private readonly config: ProjectorConfig) {}

  async onApplicationBootstrap(): Promise<void> {
    this.running = await startProjector(this.config);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.running?.stop();
  }
}

@Module({
  providers: [{ provide: PROJECTOR_CONFIG, useFactory: () => loadConfig(projectorConfigSchema) }, ProjectorLifecycle],
})
export class ProjectorModule {}
