export * from './provenance.schema';
export * from './envelope.schema';
export * from './company.schema';
export * from './topics';
export * from './ids';
export * from './validate';
export * from './stable-json';
export * from './filing.schema';
