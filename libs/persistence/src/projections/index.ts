export * from './company.projection';
export * from './fund-holdings.projection';
export * from './filing.projection';
export * from './segment.projection';
export * from './ir-roster.projection';
export * from './company-description.projection';
export * from './ir-document.projection';
export * from './document-text.projection';
