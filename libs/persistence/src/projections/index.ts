export * from './company.projection';
export * from './filing.projection';
