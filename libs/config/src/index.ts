export * from './config';
export * from './run-env';
