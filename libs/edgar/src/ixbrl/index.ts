export * from './ixbrl.numbers';
export * from './ixbrl.periods';
export * from './ixbrl.document';
export * from './segment.extractor';
export * from './segment.reconciliation';
export * from './q4.derivation';
export * from './ixbrl.rows';
export * from './facts.extractor';
