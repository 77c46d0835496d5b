import { errorCodes, type FastifyInstance } from 'fastify';
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
 * The API's body parsers: JSON only. Fastify's JSON parser is replaced by the same parser behind
 * a nesting check: a body nested deeper than MAX_JSON_DEPTH is a 400 problem before it is parsed,
 * so nothing downstream (zod, the MCP SDK, a 422 echo, a log line) ever walks thousands of levels.
 * An empty JSON body is no body (a body-less POST sent with `Content-Type: application/json`, as
 * many clients do). Any other media type with a body, and a body without a media type, is 415
 * (Fastify's text/plain parser is removed: a text body is not a JSON body); an empty body of any
 * media type is no body.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') {
      done(null, undefined);
      return;
    }
    if (jsonNestingExceeds(text, MAX_JSON_DEPTH)) {
      done(new DomainError('BodyTooDeep', `The JSON body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
      return;
    }
    void parse(request, text, done);
  });
  app.removeContentTypeParser('text/plain');
  // Read (up to the body limit) to tell an empty body from one, whatever its framing.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    if (body.length === 0) done(null, undefined);
    else done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
  });
}
