export * from './form4.types';
export * from './form4.codes';
export * from './form4.parser';
