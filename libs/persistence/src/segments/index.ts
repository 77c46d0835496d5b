export * from './segment.projection';
export * from './segments.repository';
