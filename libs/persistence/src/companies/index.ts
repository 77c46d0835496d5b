export * from './company.projection';
export * from './company-description.projection';
export * from './companies.repository';
export * from './companies.table';
export * from './issuer-symbol';
