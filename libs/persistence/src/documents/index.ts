export * from './ir-document.projection';
export * from './document-text.projection';
export * from './documents.repository';
export * from './transcripts.repository';
export * from './documents.table';
export * from './documents.events';
