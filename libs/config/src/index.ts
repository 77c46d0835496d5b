export * from './config';
export * from './run-env';
export * from './cli-help';
