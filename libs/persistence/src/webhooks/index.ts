export * from './webhook-endpoints.repository';
export * from './webhook-dispatch.repository';
export * from './webhook-events.repository';
export * from './webhooks.table';
export * from './webhook-event-log.repository';
