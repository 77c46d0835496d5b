export * from './company.projection';
export * from './filing.projection';
export * from './segment.projection';
