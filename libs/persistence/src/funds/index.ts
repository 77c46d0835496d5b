export * from './fund-holdings.projection';
export { rebuildCompanyFundCounts } from './company-fund-counts';
export * from './fund-exposure.repository';
export * from './funds.table';
