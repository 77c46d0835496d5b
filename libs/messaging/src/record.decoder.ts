import { validateRecord, type TopicDefinition, type ValidationResult } from '@app/contracts';

/** Message bytes -> validated envelope, or the reason it cannot be one. Pure. */
export function decodeRecord(topic: TopicDefinition, value: Buffer | string | null): ValidationResult {
  if (value === null || value.length === 0) {
    return { ok: false, error: 'empty message value (tombstones are not records)' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString()) as unknown;
  } catch (e) {
    return { ok: false, error: `invalid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  return validateRecord(topic, parsed);
}
