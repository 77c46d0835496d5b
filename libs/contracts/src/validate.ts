import type { RecordEnvelope } from './envelope.schema';
import type { TopicDefinition } from './topics';

export type ValidationResult =
  | { ok: true; envelope: RecordEnvelope }
  | { ok: false; error: string };

/** Validates a decoded message against the schema it names, among those its topic accepts. */
export function validateRecord(topic: TopicDefinition, value: unknown): ValidationResult {
  if (typeof value !== 'object' || value === null || !('schema' in value) || typeof value.schema !== 'string') {
    return { ok: false, error: 'record has no "schema" field' };
  }
  const schema = topic.schemas[value.schema];
  if (!schema) {
    return { ok: false, error: `schema ${value.schema} is not accepted on ${topic.name} (accepted: ${Object.keys(topic.schemas).join(', ')})` };
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 10).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    return { ok: false, error: `invalid ${value.schema}: ${issues.join('; ')}` };
  }
  return { ok: true, envelope: parsed.data as RecordEnvelope };
}
