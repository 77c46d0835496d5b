export * from './tenk-section.projection';
export * from './tenk-sections.repository';
export * from './tenk-sections.table';
