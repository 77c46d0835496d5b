export * from './postgres';
export * from './fixture-server';
