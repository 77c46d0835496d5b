export * from './thirteenf.types';
export * from './thirteenf-dataset.parser';
