import type { z } from 'zod';
import { ValidationError, type ValidationItem } from './api.errors';
import { toPydanticItem } from './query.validation';

/** The value at a zod issue's path inside the body (the `input` of the item). */
function at(body: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = body;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

const TYPE_ITEMS: Record<string, { type: string; msg: string }> = {
  string: { type: 'string_type', msg: 'Input should be a valid string' },
  array: { type: 'list_type', msg: 'Input should be a valid list' },
  boolean: { type: 'bool_type', msg: 'Input should be a valid boolean' },
  number: { type: 'float_type', msg: 'Input should be a valid number' },
  int: { type: 'int_type', msg: 'Input should be a valid integer' },
  object: { type: 'dict_type', msg: 'Input should be a valid dictionary' },
};

/** One zod issue on a JSON body as Pydantic v2 items (one per unknown field), loc rooted at 'body'. */
function bodyItems(issue: z.core.$ZodIssue, body: unknown): ValidationItem[] {
  const loc = ['body', ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
  const input = at(body, issue.path);
  if (issue.code === 'unrecognized_keys') {
    // A strict object's unknown fields: Pydantic's extra='forbid', as for query parameters.
    return issue.keys.map((key) => ({ type: 'extra_forbidden', loc: [...loc, key], msg: 'Extra inputs are not permitted', input: at(input, [key]) }));
  }
  return [bodyItem(issue, loc, input)];
}

function bodyItem(issue: z.core.$ZodIssue, loc: (string | number)[], input: unknown): ValidationItem {
  if (issue.code === 'invalid_type') {
    if (input === undefined) return { type: 'missing', loc, msg: 'Field required', input: null };
    const t = TYPE_ITEMS[issue.expected] ?? { type: `${issue.expected}_type`, msg: `Input should be a valid ${issue.expected}` };
    return { type: t.type, loc, msg: t.msg, input };
  }
  if ((issue.code === 'too_small' || issue.code === 'too_big') && issue.origin === 'array') {
    const n = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
    const actual = Array.isArray(input) ? input.length : 0;
    return issue.code === 'too_small'
      ? { type: 'too_short', loc, msg: `List should have at least ${n} item${n === 1 ? '' : 's'} after validation, not ${actual}`, input, ctx: { field_type: 'List', min_length: n, actual_length: actual } }
      : { type: 'too_long', loc, msg: `List should have at most ${n} item${n === 1 ? '' : 's'} after validation, not ${actual}`, input, ctx: { field_type: 'List', max_length: n, actual_length: actual } };
  }
  if (issue.code === 'custom') {
    const p = issue.params as { pydantic?: string; msg?: string; ctx?: Record<string, unknown> } | undefined;
    if (p?.pydantic && p.msg) return { type: p.pydantic, loc, msg: p.msg, input, ...(p.ctx ? { ctx: p.ctx } : {}) };
  }
  return toPydanticItem(issue, loc, input);
}

/**
 * Validates a JSON request body against a zod object schema, answering 422 with Pydantic v2
 * items as FastAPI does for bodies: a missing body is `missing` at ['body'], a non-object
 * `model_attributes_type`, every field issue located at ['body', field, index...]. Body schemas
 * are strict objects (at every level), so an unknown field is `extra_forbidden` at its loc.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, options: { optional?: boolean } = {}): z.infer<S> {
  if (body === undefined || body === null) {
    if (options.optional) body = {};
    else throw new ValidationError([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
  }
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError([{ type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: body }]);
  }
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  throw new ValidationError(r.error.issues.flatMap((i) => bodyItems(i, body)));
}

/**
 * The body of a route that takes none: undefined. Any body at all (`{}`, `null`) is a 422
 * `extra_forbidden` at ['body'] rather than silently ignored; an empty body is no body (the
 * JSON parser reads zero bytes as undefined).
 */
export function refuseBody(body: unknown): undefined {
  if (body !== undefined) throw new ValidationError([{ type: 'extra_forbidden', loc: ['body'], msg: 'Extra inputs are not permitted', input: body }]);
  return undefined;
}
