import { Controller, Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { RecordBatch } from '@app/messaging';
import { TOPICS } from '@app/contracts';
import { PROJECTED_TOPICS, ProjectorService } from './projector.service';

/** The Kafka edge: every projected topic's batches go to the projector service. */
@Controller()
export class ProjectorController {
  constructor(@Inject(ProjectorService) private readonly service: ProjectorService) {}

  @EventPattern(PROJECTED_TOPICS.map((t) => t.name))
  project(@Payload() batch: RecordBatch): Promise<void> {
    return this.service.project(batch);
  }
}

/** Log mode only (a replay): the event log's batches, inserted verbatim. */
@Controller()
export class WebhookEventLogController {
  constructor(@Inject(ProjectorService) private readonly service: ProjectorService) {}

  @EventPattern([TOPICS.webhookEvents.name])
  insert(@Payload() batch: RecordBatch): Promise<void> {
    return this.service.insertLogged(batch);
  }
}
