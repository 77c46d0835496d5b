/**
 * JSON with object keys sorted, so equal values always hash the same whatever the key order.
 * Built by concatenation, without the intermediate entry arrays: every record's data hash is made
 * from it on the projector's hot path.
 */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i += 1) out += (i === 0 ? '' : ',') + stableStringify(value[i]);
    return `${out}]`;
  }
  const object = value as Record<string, unknown>;
  let out = '{';
  for (const key of Object.keys(object).sort()) {
    const v = object[key];
    if (v === undefined) continue;
    out += (out.length === 1 ? '' : ',') + JSON.stringify(key) + ':' + stableStringify(v);
  }
  return `${out}}`;
}
