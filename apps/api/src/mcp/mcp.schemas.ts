import { z } from 'zod';
import type { ValidationItem } from '../platform/api.errors';
import { toPydanticItem, type ParamSpec, type ScalarSpec } from '../platform/query.validation';

/** Where an argument goes: the route's path or its query string, or (`arguments`) the tool itself, never REST. */
export type ParamWhere = 'path' | 'query' | 'arguments';

/** One tool argument: the REST parameter it becomes (or the tool's own) and the spec of its JSON value. */
export interface ToolArg {
  name: string;
  where: ParamWhere;
  param: string;
  required: boolean;
  spec: ParamSpec;
}

function scalarZod(spec: ScalarSpec): z.ZodType {
  switch (spec.kind) {
    case 'string': {
      let s = z.string();
      if (spec.minLength !== undefined) s = s.min(spec.minLength);
      if (spec.maxLength !== undefined) s = s.max(spec.maxLength);
      if (spec.pattern !== undefined) s = s.regex(new RegExp(spec.pattern));
      return s;
    }
    case 'int': {
      let n = z.number().int();
      if (spec.minimum !== undefined) n = n.min(spec.minimum);
      if (spec.maximum !== undefined) n = n.max(spec.maximum);
      return n;
    }
    case 'bool':
      return z.boolean();
    case 'enum':
      return z.enum(spec.values as [string, ...string[]]);
  }
}

/**
 * The zod schema of one argument, typed as JSON (numbers, booleans, arrays) where the query string
 * carries text, with the REST parameter's constraints, description and default, so the advertised
 * JSON Schema says what REST accepts.
 */
export function argZod(arg: ToolArg): z.ZodType {
  const { spec } = arg;
  let s: z.ZodType = spec.kind === 'array' ? z.array(scalarZod(spec.items)).max(spec.maxItems ?? 100) : scalarZod(spec);
  s = s.describe(spec.description);
  if (arg.required) return s;
  return spec.default !== undefined ? s.optional().meta({ default: spec.default }) : s.optional();
}

/** The input schema of a tool taking parameters: a strict object of its arguments. */
export function argsZod(args: readonly ToolArg[]): z.ZodObject {
  return z.strictObject(Object.fromEntries(args.map((a) => [a.name, argZod(a)])));
}

const TYPE_ITEMS: Record<string, { type: string; msg: string }> = {
  string: { type: 'string_type', msg: 'Input should be a valid string' },
  array: { type: 'list_type', msg: 'Input should be a valid list' },
  boolean: { type: 'bool_type', msg: 'Input should be a valid boolean' },
  number: { type: 'int_type', msg: 'Input should be a valid integer' },
  int: { type: 'int_type', msg: 'Input should be a valid integer' },
  object: { type: 'dict_type', msg: 'Input should be a valid dictionary' },
};

/**
 * Validates tool arguments. Items are Pydantic v2 items as REST answers them, located where REST
 * would locate the parameter (`['query', 'limit']`, `['path', 'symbol']`) but under the argument's
 * name; one item per argument (the first issue, as REST reports one per parameter); an unknown
 * argument is `extra_forbidden` at `['arguments', name]`.
 */
export function validateArgs(args: readonly ToolArg[], input: Record<string, unknown>): ValidationItem[] {
  const items: ValidationItem[] = [];
  const byName = new Map(args.map((a) => [a.name, a]));
  for (const name of Object.keys(input)) {
    if (!byName.has(name)) items.push({ type: 'extra_forbidden', loc: ['arguments', name], msg: 'Extra inputs are not permitted', input: input[name] });
  }
  for (const arg of args) {
    const value = input[arg.name];
    if (value === undefined || value === null) {
      if (arg.required) items.push({ type: 'missing', loc: [arg.where, arg.name], msg: 'Field required', input: null });
      continue;
    }
    const r = argZod(arg).safeParse(value);
    if (r.success) {
      const lone = loneSurrogateItem(arg, value);
      if (lone) items.push(lone);
      continue;
    }
    const issue = r.error.issues[0]!;
    const loc = [arg.where, arg.name, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
    const at = issue.path.length === 1 && Array.isArray(value) ? (value as unknown[])[issue.path[0] as number] : value;
    if (issue.code === 'invalid_type' && issue.expected === 'int' && typeof at === 'number') {
      items.push({ type: 'int_from_float', loc, msg: 'Input should be a valid integer, got a number with a fractional part', input: at });
    } else if (issue.code === 'invalid_type') {
      const t = TYPE_ITEMS[issue.expected] ?? { type: `${issue.expected}_type`, msg: `Input should be a valid ${issue.expected}` };
      items.push({ type: t.type, loc, msg: t.msg, input: at });
    } else if (issue.code === 'too_big' && issue.origin === 'array') {
      const n = Number(issue.maximum);
      const actual = (value as unknown[]).length;
      items.push({ type: 'too_long', loc, msg: `List should have at most ${n} items after validation, not ${actual}`, input: value, ctx: { field_type: 'List', max_length: n, actual_length: actual } });
    } else {
      items.push(toPydanticItem(issue, loc, at));
    }
  }
  return items;
}

/** A lone (unpaired) UTF-16 surrogate: in unicode mode a paired one is part of a code point, never matched. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * JSON-RPC can carry "\uD800", a string that is not text: no URL can (a percent-encoded lone
 * surrogate is invalid UTF-8), and encodeURIComponent throws URIError on it. Such an argument is a
 * 422 value_error, as a malformed parameter is on REST.
 */
function loneSurrogateItem(arg: ToolArg, value: unknown): ValidationItem | null {
  const strings: [string, (string | number)[]][] =
    typeof value === 'string' ? [[value, []]] : Array.isArray(value) ? value.flatMap((v, i) => (typeof v === 'string' ? [[v, [i]] as [string, (string | number)[]]] : [])) : [];
  for (const [s, at] of strings) {
    if (!LONE_SURROGATE.test(s)) continue;
    const error = 'must be well-formed Unicode text (it holds a lone UTF-16 surrogate)';
    return { type: 'value_error', loc: [arg.where, arg.name, ...at], msg: `Value error, ${error}`, input: s.replace(/\p{Cs}/gu, '\uFFFD'), ctx: { error } };
  }
  return null;
}

/** An argument's JSON value as the query string would carry it (the REST handler parses it again). */
export function toQueryValue(value: unknown): string | string[] {
  const text = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
  return Array.isArray(value) ? value.map(text) : text(value);
}

/** A zod schema as the JSON Schema MCP clients read (draft-07, as the SDK's own tools advertise). */
export function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): { type: 'object'; [k: string]: unknown } {
  const { $schema: _draft, ...json } = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<string, unknown>;
  if (json.type !== 'object') throw new Error(`a tool schema must be a JSON object schema, got ${JSON.stringify(json.type)}`);
  return json as { type: 'object'; [k: string]: unknown };
}

/** Levels of fields an output schema spells out: the answer's, and its items' (tools/list stays under 56,000 characters). */
const OUTPUT_SCHEMA_DEPTH = 2;

/** Subschemas at least this long (JSON characters) that occur twice or more become shared definitions. */
const SHARED_MIN_CHARS = 120;

type JsonNode = unknown;

/**
 * Drops what an output schema does not need to say what an answer holds: descriptions (field
 * meanings are in the docs), string formats (date, date-time: the OpenAPI document gives them),
 * required lists and closed objects, JavaScript's safe-integer bounds.
 */
function stripForOutput(node: JsonNode, depth = 0): JsonNode {
  if (Array.isArray(node)) return node.map((n) => stripForOutput(n, depth));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      // Deeper, an object is just an object (an item's provenance, a fund's header): the docs give
      // their fields.
      if (depth >= OUTPUT_SCHEMA_DEPTH) continue;
      // Property names are data here (a company has a `description` field): keep them all.
      out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([prop, schema]) => [prop, stripForOutput(schema, depth + 1)]));
      continue;
    }
    // The shape only: no descriptions, and no required lists or closed objects (additive fields stay valid).
    if (key === 'description' || key === 'format' || key === '$schema' || key === 'required' || (key === 'additionalProperties' && value === false)) continue;
    if ((key === 'minimum' || key === 'maximum') && typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER) continue;
    out[key] = stripForOutput(value, depth);
  }
  // A nullable date is anyOf [{type: string, format}, {type: null}]: without the format, the type list it means.
  const branches = out.anyOf;
  if (Array.isArray(branches) && branches.every((b) => isBareType(b))) {
    delete out.anyOf;
    out.type = [...new Set(branches.flatMap((b) => b.type))];
  }
  return out;
}

/** `{type: 'string'}` or `{type: ['string', 'null']}`: a branch that asserts a type and nothing else. */
function isBareType(node: unknown): node is { type: string | string[] } {
  if (node === null || typeof node !== 'object') return false;
  const keys = Object.keys(node);
  const type = (node as { type?: unknown }).type;
  return keys.length === 1 && keys[0] === 'type' && (typeof type === 'string' || (Array.isArray(type) && type.every((x) => typeof x === 'string')));
}

/** Moves every repeated subschema into `definitions` (draft-07), referenced by `$ref`, named after the property it first describes. */
function shareRepeated(root: Record<string, unknown>): Record<string, unknown> {
  const counts = new Map<string, number>();
  // The property names a repeated subschema describes: its definition takes the most common one.
  const hints = new Map<string, Map<string, number>>();
  const count = (node: JsonNode, hint: string): void => {
    if (node === null || typeof node !== 'object') return;
    const text = JSON.stringify(node);
    if (text.length >= SHARED_MIN_CHARS && !Array.isArray(node)) {
      counts.set(text, (counts.get(text) ?? 0) + 1);
      const h = hints.get(text) ?? new Map<string, number>();
      h.set(hint, (h.get(hint) ?? 0) + 1);
      hints.set(text, h);
    }
    if (Array.isArray(node)) for (const child of node) count(child, hint);
    else
      for (const [key, value] of Object.entries(node)) {
        if (key === 'properties' && value && typeof value === 'object') for (const [prop, schema] of Object.entries(value as Record<string, unknown>)) count(schema, prop);
        else count(value, key === 'items' ? `${hint}_item` : hint);
      }
  };
  count(root, 'root');
  const bestHint = (text: string, fallback: string): string =>
    [...(hints.get(text) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length)[0]?.[0] ?? fallback;
  const definitions: Record<string, unknown> = {};
  const names = new Map<string, string>();
  const rewrite = (node: JsonNode, hint: string): JsonNode => {
    if (Array.isArray(node)) return node.map((n) => rewrite(n, hint));
    if (node === null || typeof node !== 'object') return node;
    const text = JSON.stringify(node);
    if (!Array.isArray(node) && (counts.get(text) ?? 0) >= 2 && text.length >= SHARED_MIN_CHARS) {
      let name = names.get(text);
      if (!name) {
        const base = bestHint(text, hint);
        name = base;
        for (let i = 2; name in definitions; i += 1) name = `${base}${i}`;
        names.set(text, name);
        definitions[name] = null; // reserved while its own children are rewritten
        definitions[name] = children(node as Record<string, unknown>, hint);
      }
      return { $ref: `#/definitions/${name}` };
    }
    return children(node as Record<string, unknown>, hint);
  };
  const children = (node: Record<string, unknown>, hint: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && value && typeof value === 'object') {
        out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([prop, schema]) => [prop, rewrite(schema, prop)]));
      } else if (key === 'items') out[key] = rewrite(value, `${hint}_item`);
      else out[key] = rewrite(value, hint);
    }
    return out;
  };
  const body = children(root, 'root');
  return Object.keys(definitions).length ? { ...body, definitions } : body;
}

/**
 * A tool's output schema, short: the shape the answer has (so clients can check structured
 * content) without the field descriptions, repeated parts defined once.
 */
export function compactOutputSchema(schema: z.ZodType): { type: 'object'; [k: string]: unknown } {
  const json = shareRepeated(stripForOutput(toolJsonSchema(schema, 'output')) as Record<string, unknown>);
  return json as { type: 'object'; [k: string]: unknown };
}
