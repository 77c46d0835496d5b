import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { loadConfig } from '@app/config';
import { webhooksConfigSchema, type WebhooksConfig } from './webhooks.config';
import { startWebhooks, type RunningWebhooks } from './webhooks.runner';

export const WEBHOOKS_CONFIG = Symbol('WEBHOOKS_CONFIG');

/** Starts the dispatcher with the application; stops it gracefully on shutdown. */
@Injectable()
export class WebhooksLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private running: RunningWebhooks | undefined;

  constructor(@Inject(WEBHOOKS_CONFIG) private readonly config: WebhooksConfig) {}

  get webhooks(): RunningWebhooks | undefined {
    return this.running;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.running = await startWebhooks(this.config);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.running?.stop();
  }
}

/** The webhooks app; `forRoot()` reads the environment, tests and the bench pass a configuration. */
@Module({})
export class WebhooksModule {
  static forRoot(config: WebhooksConfig = loadConfig(webhooksConfigSchema)): DynamicModule {
    return { module: WebhooksModule, providers: [{ provide: WEBHOOKS_CONFIG, useValue: config }, WebhooksLifecycle], exports: [WebhooksLifecycle] };
  }
}
