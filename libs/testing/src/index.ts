export * from './postgres';
export * from './kafka';
export * from './eventually';
export * from './fixture-server';
export * from './submissions-zip';
export * from './own-kafka';
export * from './swc-register';
export * from './free-port';
