export * from './api-keys.repository';
