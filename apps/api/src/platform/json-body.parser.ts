import type { FastifyInstance } from 'fastify';
import { DomainError } from './api.errors';

/** Deepest nesting of arrays and objects a JSON body may have; no route takes more than a few levels. */
export const MAX_JSON_DEPTH = 64;

/**
 * True when the JSON text nests arrays/objects deeper than `max`. One pass over the characters,
 * skipping string contents, so it costs a fraction of JSON.parse and never recurses.
 */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

/**
 * Replaces Fastify's JSON body parser by the same parser behind a nesting check: a body nested
 * deeper than MAX_JSON_DEPTH is a 400 problem before it is parsed, so nothing downstream (zod,
 * the MCP SDK, a 422 echo, a log line) ever walks thousands of levels.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonNestingExceeds(text, MAX_JSON_DEPTH)) {
      done(new DomainError('BodyTooDeep', `The JSON body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
      return;
    }
    void parse(request, text, done);
  });
}
