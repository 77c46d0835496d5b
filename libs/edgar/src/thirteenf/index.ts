export * from './thirteenf.types';
export * from './thirteenf-dates';
export * from './thirteenf-primary-doc.parser';
export * from './thirteenf-info-table.parser';
export * from './thirteenf-value-unit';
export * from './thirteenf-submission.parser';
export * from './thirteenf-securities-list.parser';
export * from './thirteenf-dataset.parser';
