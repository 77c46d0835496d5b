export const KAFKA_SETTINGS = Symbol('KAFKA_SETTINGS');
/** The RecordPublisher (libs/messaging) the use case publishes through. */
export const RECORD_PUBLISHER = Symbol('RECORD_PUBLISHER');
export type { RecordPublisher } from '@app/messaging';
