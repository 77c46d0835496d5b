export * from './instance.parser';
export * from './instance.segments';
