import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from '@app/observability';
import { createDataSource } from '@app/persistence';
import type { DataSource } from 'typeorm';
import type { ProjectorConfig } from './projector.config';
import { ProjectorController } from './projector.controller';
import { PROJECTOR_DATA_SOURCE, PROJECTOR_LOGGER, ProjectorService } from './projector.service';

/** Closes the projector's pool after the transport has stopped consuming (Nest closes the server first). */
@Injectable()
export class ProjectorDatabase implements OnApplicationShutdown {
  constructor(@Inject(PROJECTOR_DATA_SOURCE) private readonly ds: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.ds.isInitialized) await this.ds.destroy();
  }
}

/** The projector: its controller declares the @EventPattern handler of every projected topic. */
@Module({})
export class ProjectorModule {
  static forRoot(config: ProjectorConfig, logger: Logger): DynamicModule {
    return {
      module: ProjectorModule,
      controllers: [ProjectorController],
      providers: [
        { provide: PROJECTOR_LOGGER, useValue: logger },
        {
          provide: PROJECTOR_DATA_SOURCE,
          useFactory: async () => {
            const ds = createDataSource({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'projector' });
            return ds.initialize();
          },
        },
        ProjectorDatabase,
        ProjectorService,
      ],
    };
  }
}
