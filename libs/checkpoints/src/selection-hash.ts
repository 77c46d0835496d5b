import { createHash } from 'node:crypto';

/**
 * The canonical JSON of a run's selection: object keys sorted, a Set as its sorted members, a Map
 * as its sorted entries. Plain JSON.stringify writes a Set as `{}`, so two selections that differ
 * only in a Set's members (tickers, CIKs) would look the same and a checkpoint would resume the
 * wrong run.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

function canonical(value: unknown): unknown {
  if (value instanceof Set) return [...value].map(canonical).sort(compareJson);
  if (value instanceof Map) return [...value.entries()].map(([k, v]) => [canonical(k), canonical(v)]).sort(compareJson);
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonical(v);
    }
    return out;
  }
  return value;
}

function compareJson(a: unknown, b: unknown): number {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * `sha256:<hex>` of what a run publishes (its inputs and options): a checkpoint carries it, and a
 * run resumes only a checkpoint of the same selection; another selection starts over.
 */
export function selectionHash(selection: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(selection)).digest('hex')}`;
}
