export * from './ir-roster.projection';
export * from './roster.repository';
export * from './roster.table';
