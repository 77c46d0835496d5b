export * from './company.projection';
