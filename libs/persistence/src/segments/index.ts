export * from './segment.projection';
export * from './segments.repository';
export * from './segments.table';
