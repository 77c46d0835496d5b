export * from './thirteenf.types';
