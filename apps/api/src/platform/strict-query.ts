import type { ValidationItem } from './api.errors';
import { QueryParser, type ParamSpecs } from './query.validation';

/** Items of the parameters a route does declare, to report with the extra ones in one 422. */
const parsers = new WeakMap<ParamSpecs, QueryParser>();

/**
 * Query parameters a route does not declare, one `extra_forbidden` item each (Pydantic's
 * `extra='forbid'`, as the MCP tools answer for unknown arguments): `?form=10-K` for `forms` must
 * not quietly return every form. Empty when every parameter is declared. When some are not, the
 * declared ones are validated too, so the 422 lists every problem of the query at once.
 */
export function strictQueryItems(query: unknown, declared: ParamSpecs | undefined): ValidationItem[] {
  if (query === null || typeof query !== 'object') return [];
  const extra: ValidationItem[] = [];
  for (const [name, input] of Object.entries(query)) {
    if (declared === undefined || !Object.hasOwn(declared, name)) extra.push({ type: 'extra_forbidden', loc: ['query', name], msg: 'Extra inputs are not permitted', input });
  }
  if (extra.length === 0 || declared === undefined) return extra;
  let parser = parsers.get(declared);
  if (!parser) {
    parser = new QueryParser(declared);
    parsers.set(declared, parser);
  }
  const items: ValidationItem[] = [];
  parser.parse(query as Record<string, unknown>, items);
  return [...items, ...extra];
}
