// Checkpoints of ingest runs that stop (a broker outage outlasting the publish retry bound) and
// resume: JSON files written atomically, read through a zod schema, keyed by a selection hash.
export { readJsonCheckpoint, removeJsonCheckpoint, writeJsonCheckpoint } from './json-checkpoint';
export { canonicalJson, selectionHash } from './selection-hash';
