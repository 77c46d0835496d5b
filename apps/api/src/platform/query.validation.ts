import { z } from 'zod';
import type { ValidationItem } from './api.errors';

/**
 * Query parameters described once: the same descriptors drive validation (zod) and the OpenAPI
 * document. zod issues are turned into Pydantic v2 items ({type, loc, msg, input, ctx}).
 */
export type ScalarSpec =
  | { kind: 'string'; minLength?: number; maxLength?: number; pattern?: string; format?: 'date' }
  | { kind: 'int'; minimum?: number; maximum?: number }
  | { kind: 'bool' }
  | { kind: 'enum'; values: readonly string[] };

export type ParamSpec = (ScalarSpec | { kind: 'array'; items: ScalarSpec; maxItems?: number }) & {
  description: string;
  default?: unknown;
  /** A query parameter the request must give (a 422 `missing` without it); path parameters always are. */
  required?: true;
};

export type ParamSpecs = Record<string, ParamSpec>;

/** A route's parameters, declared once: keeps each parameter's kind and enum values as types. */
export function params<const S extends ParamSpecs>(specs: S): S {
  return specs;
}

type ScalarValue<S> = S extends { kind: 'string' }
  ? string
  : S extends { kind: 'int' }
    ? number
    : S extends { kind: 'bool' }
      ? boolean
      : S extends { kind: 'enum'; values: readonly (infer V)[] }
        ? V
        : never;

/** The page parameters every list shares: one description of each. */
export const CURSOR_PARAM = { kind: 'string', minLength: 1, maxLength: 1024, description: 'Cursor from the previous page' } as const;
export const LIMIT_PARAM = { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Page size, 1 to 500 (free plan: 25)' } as const;

/** The parsed value of one parameter. */
export type ParamValue<P> = P extends { kind: 'array'; items: infer I } ? ScalarValue<I>[] : ScalarValue<P>;

type Defaulted<S> = { [K in keyof S]: S[K] extends { default: unknown } ? K : never }[keyof S];

type Required<S> = { [K in keyof S]: S[K] extends { required: true } ? K : never }[keyof S];

/** Parsed query parameters: those with a default or required are always there, the others optional. */
export type ParamValues<S extends ParamSpecs> = { [K in Defaulted<S> | Required<S>]: ParamValue<S[K]> } & { [K in Exclude<keyof S, Defaulted<S> | Required<S>>]?: ParamValue<S[K]> };

/** Parsed path parameters: the router matched every one of them. */
export type PathValues<S extends ParamSpecs> = { [K in keyof S]: ParamValue<S[K]> };

const INT_RE = /^\s*[+-]?\d+\s*$/;
const TRUE = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE = new Set(['0', 'off', 'f', 'false', 'n', 'no']);
const MAX_ARRAY_ITEMS = 100;

function pyRepr(v: string): string {
  return `'${v}'`;
}

function scalarSchema(spec: ScalarSpec): z.ZodType {
  switch (spec.kind) {
    case 'string': {
      // Postgres text cannot hold NUL: refuse it here rather than fail in the database.
      let s = z.string().refine((v) => !v.includes('\u0000'), { message: 'Input should not contain NUL characters', abort: true });
      if (spec.minLength !== undefined) s = s.min(spec.minLength);
      if (spec.maxLength !== undefined) s = s.max(spec.maxLength);
      if (spec.pattern !== undefined) s = s.regex(new RegExp(spec.pattern));
      return s;
    }
    case 'int': {
      let n = z.number();
      if (spec.minimum !== undefined) n = n.min(spec.minimum);
      if (spec.maximum !== undefined) n = n.max(spec.maximum);
      return z
        .string()
        .refine((s) => INT_RE.test(s), { params: { pydantic: 'int_parsing' }, abort: true })
        .transform((s) => Number(s))
        .pipe(n);
    }
    case 'bool':
      return z
        .string()
        .refine((s) => TRUE.has(s.toLowerCase()) || FALSE.has(s.toLowerCase()), { params: { pydantic: 'bool_parsing' }, abort: true })
        .transform((s) => TRUE.has(s.toLowerCase()));
    case 'enum':
      return z.enum(spec.values as [string, ...string[]]);
  }
}

/** One zod issue as a Pydantic v2 item. */
export function toPydanticItem(issue: z.core.$ZodIssue, loc: (string | number)[], input: unknown): ValidationItem {
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string') {
        const n = Number(issue.minimum);
        return { type: 'string_too_short', loc, msg: `String should have at least ${n} character${n === 1 ? '' : 's'}`, input, ctx: { min_length: n } };
      }
      return { type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${Number(issue.minimum)}`, input, ctx: { ge: Number(issue.minimum) } };
    case 'too_big':
      if (issue.origin === 'string') {
        const n = Number(issue.maximum);
        return { type: 'string_too_long', loc, msg: `String should have at most ${n} character${n === 1 ? '' : 's'}`, input, ctx: { max_length: n } };
      }
      return { type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${Number(issue.maximum)}`, input, ctx: { le: Number(issue.maximum) } };
    case 'invalid_format':
      if (issue.format === 'regex' && 'pattern' in issue) {
        // zod reports the RegExp's toString(); Pydantic shows the bare pattern.
        const pattern = String(issue.pattern).replace(/^\/(.*)\/[a-z]*$/s, '$1');
        return { type: 'string_pattern_mismatch', loc, msg: `String should match pattern '${pattern}'`, input, ctx: { pattern } };
      }
      return { type: 'value_error', loc, msg: `Value error, ${issue.message}`, input, ctx: { error: issue.message } };
    case 'invalid_value': {
      const values = issue.values.map((v) => pyRepr(String(v)));
      const expected = values.length <= 1 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
      return { type: 'literal_error', loc, msg: `Input should be ${expected}`, input, ctx: { expected } };
    }
    case 'custom': {
      if (issue.message === 'Input should not contain NUL characters') return { type: 'value_error', loc, msg: `Value error, ${issue.message}`, input, ctx: { error: issue.message } };
      const kind = (issue.params as { pydantic?: string } | undefined)?.pydantic;
      if (kind === 'int_parsing') return { type: 'int_parsing', loc, msg: 'Input should be a valid integer, unable to parse string as an integer', input };
      if (kind === 'bool_parsing') return { type: 'bool_parsing', loc, msg: 'Input should be a valid boolean, unable to interpret input', input };
      return { type: 'value_error', loc, msg: `Value error, ${issue.message}`, input, ctx: { error: issue.message } };
    }
    case 'invalid_type':
      return { type: 'string_type', loc, msg: 'Input should be a valid string', input };
    case 'invalid_element':
    case 'invalid_key':
    case 'invalid_union':
    case 'not_multiple_of':
    case 'unrecognized_keys':
      return { type: 'value_error', loc, msg: `Value error, ${issue.message}`, input, ctx: { error: issue.message } };
  }
}

export const missingItem = (loc: (string | number)[]): ValidationItem => ({ type: 'missing', loc, msg: 'Field required', input: null });

export const valueErrorItem = (loc: (string | number)[], input: unknown, error: string): ValidationItem => ({
  type: 'value_error',
  loc,
  msg: `Value error, ${error}`,
  input,
  ctx: { error },
});

interface Compiled {
  name: string;
  spec: ParamSpec;
  schema: z.ZodType;
}

/**
 * A compiled query parser. Unknown parameters are ignored; a scalar given several times takes
 * the last value (as FastAPI does); arrays take repeated parameters and comma-separated values.
 */
export class QueryParser<S extends ParamSpecs = ParamSpecs> {
  private readonly compiled: Compiled[];

  constructor(readonly specs: S) {
    this.compiled = Object.entries(specs).map(([name, spec]) => ({
      name,
      spec,
      schema: spec.kind === 'array' ? scalarSchema(spec.items) : scalarSchema(spec),
    }));
  }

  parse(query: Record<string, unknown>, items: ValidationItem[], locRoot = 'query'): ParamValues<S> {
    const out: Record<string, unknown> = {};
    for (const { name, spec, schema } of this.compiled) {
      const raw = query[name];
      if (raw === undefined) {
        if (spec.default !== undefined) out[name] = spec.default;
        else if (spec.required) items.push(missingItem([locRoot, name]));
        continue;
      }
      if (spec.kind === 'array') {
        const values = (Array.isArray(raw) ? raw : [raw])
          .flatMap((v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '').split(','))
          .map((v) => v.trim())
          .filter((v) => v.length > 0);
        const limit = spec.maxItems ?? MAX_ARRAY_ITEMS;
        if (values.length > limit) {
          items.push({ type: 'too_long', loc: [locRoot, name], msg: `List should have at most ${limit} items after validation, not ${values.length}`, input: values, ctx: { field_type: 'List', max_length: limit, actual_length: values.length } });
          continue;
        }
        const parsed: unknown[] = [];
        values.forEach((v, i) => {
          const r = schema.safeParse(v);
          if (r.success) parsed.push(r.data);
          else items.push(toPydanticItem(r.error.issues[0]!, [locRoot, name, i], v));
        });
        out[name] = parsed;
        continue;
      }
      const last: unknown = Array.isArray(raw) ? raw[raw.length - 1] : raw;
      const value = typeof last === 'string' ? last : JSON.stringify(last) ?? '';
      const r = schema.safeParse(value);
      if (r.success) out[name] = r.data;
      else items.push(toPydanticItem(r.error.issues[0]!, [locRoot, name], value));
    }
    // Each value was parsed by the schema of its spec's kind: the shape ParamValues<S> describes.
    return out as ParamValues<S>;
  }
}

/**
 * A route check over a date range's two query parameters: each a calendar day, and the range not
 * ending before it starts (the 422 names the second parameter).
 */
export function dateRangeCheck<F extends string, T extends string>(fromName: F, toName: T) {
  const days = calendarDateCheck<F | T>(fromName, toName);
  return ({ query }: { query: { [K in F | T]?: string } }, items: ValidationItem[]): void => {
    days({ query }, items);
    const from = query[fromName];
    const to = query[toName];
    if (from && to && isCalendarDate(from) && isCalendarDate(to) && from > to) {
      items.push(valueErrorItem(['query', toName], to, `${toName} must not be before ${fromName}`));
    }
  };
}

/**
 * `as_of=YYYY-MM-DD`: the answer as it stood on that day, from what had been filed by its end.
 * The pattern refuses the shape (string_pattern_mismatch); calendarDateCheck refuses 2025-02-30.
 */
export const AS_OF_PARAM = {
  kind: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  format: 'date',
  description: 'YYYY-MM-DD: as it stood that day, from what was filed by then; gaps says what is not',
} as const;

/** A route check: each named query parameter, when given, is a calendar day (value_error otherwise). */
export function calendarDateCheck<N extends string>(...names: N[]) {
  return ({ query }: { query: { [K in N]?: string } }, items: ValidationItem[]): void => {
    for (const name of names) {
      const v = query[name];
      if (v !== undefined && !isCalendarDate(v)) items.push(valueErrorItem(['query', name], v, 'Input should be a valid date'));
    }
  };
}

/** A real YYYY-MM-DD day (2025-02-30 and 0000-01-01 are not): the date filters' second check after their pattern. */
export function isCalendarDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  // Year 0000 parses in JavaScript, but Postgres has no year zero: it would fail in SQL.
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s && !s.startsWith('0000');
}
