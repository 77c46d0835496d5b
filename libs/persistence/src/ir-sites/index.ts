export * from './ir-site.projection';
export * from './ir-sites.table';
