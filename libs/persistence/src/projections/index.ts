export * from './company.projection';
export * from './fund-holdings.projection';
export * from './filing.projection';
export * from './segment.projection';
