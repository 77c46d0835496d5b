/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Names whose value is a secret wherever they appear: a header, a JSON field, a query or form
 * parameter (`authorization`, `set-cookie`, `x-api-key`, `api_key`, `access_token`,
 * `signing_secret`, `password`...).
 */
const SECRET_FIELD = String.raw`(?:proxy-)?authorization|(?:set-)?cookie|[\w.-]*?(?:api[_-]?key|token|secret|passw(?:or)?d)`;
/**
 * Parameter names censored too: a `key` or `sig` in a URL is a credential by custom, while as a JSON
 * field `key` is usually a Kafka record's key, which logs must keep.
 */
const SECRET_PARAM = `${SECRET_FIELD}|key|sig|signature|auth`;
const SECRET_FIELD_NAME = new RegExp(`^(?:${SECRET_FIELD})$`, 'i');
const SECRET_PARAM_NAME = new RegExp(`^(?:${SECRET_PARAM})$`, 'i');

/** How every secret name above ends: the scan looks for these, then reads the whole name back. */
const NAME_END = String.raw`key|token|secret|passw(?:or)?d|authorization|cookie|sig|signature|auth`;
/** Our API keys (`sk_live_`/`sk_test_`, also percent-encoded) and Standard Webhooks secrets (`whsec_` + base64). */
const KEY = String.raw`(sk(?:_|%5f)(?:live|test)(?:_|%5f))[\w%-]+|(whsec(?:_|%5f))[\w+/=%-]+`;
/** `name=value` (a query string, a form body, a message): the value ends where a URL or a JSON string ends it. */
const PARAM_VALUE = String.raw`(=|%3d)((?:[^&#;\s"\\]|\\.)+)`;
/**
 * `"name": "value"` or `"name": ["value", ...]` (a header object, a body, a log line), also as JSON
 * text inside a JSON string (`{\"token\":\"...\"}`, a body quoted in a message).
 */
const FIELD_VALUE = String.raw`(\\?"\s*:\s*)("(?:[^"\\]|\\.)*"|\[(?:"(?:[^"\\]|\\.)*"|[^\]"])*\]|\\"(?:[^\\]|\\[^"])*?\\")`;
/** The password of a URL's userinfo (`postgres://user:password@host`). */
const USERINFO = String.raw`(:\/\/[^\s/?#@:"]*:)[^\s/?#@"]+@`;
/**
 * One pass over the text finds every candidate: 0.3-0.5 µs on a request log line holding none. No
 * cheaper pre-check (a few `includes`) would do: every JSON line holds `":` and most URLs `=`.
 */
const CANDIDATES = new RegExp(`${KEY}|(?:${NAME_END})(?:${PARAM_VALUE}|${FIELD_VALUE})`, 'gi');
const URL_PASSWORD = new RegExp(USERINFO, 'g');

function isNameChar(code: number): boolean {
  // [A-Za-z0-9_.-]
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 46 || code === 45;
}

/** The whole parameter or field name that ends at `end` (`api_key` of `?api_key=`); `%3F`/`%26` before it are not part of it. */
function nameBefore(text: string, end: number): { name: string; start: number } {
  let start = end;
  while (start > 0 && isNameChar(text.charCodeAt(start - 1))) start -= 1;
  if (start > 0 && text[start - 1] === '%' && /^(?:3f|26)/i.test(text.slice(start, start + 2))) start += 2;
  return { name: text.slice(start, end), start };
}

function censor(
  match: string,
  keyPrefix: string | undefined,
  secretPrefix: string | undefined,
  paramSep: string | undefined,
  paramValue: string | undefined,
  fieldSep: string | undefined,
  fieldValue: string | undefined,
  offset: number,
  text: string,
): string {
  if (keyPrefix !== undefined) return `${keyPrefix}${REDACTED}`;
  if (secretPrefix !== undefined) return `${secretPrefix}${REDACTED}`;
  const value = paramValue ?? fieldValue ?? '';
  const head = match.slice(0, match.length - value.length);
  const { name, start } = nameBefore(text, offset + match.length - value.length - (paramSep ?? fieldSep ?? '').length);
  const secret = paramSep !== undefined ? SECRET_PARAM_NAME.test(name) : text[start - 1] === '"' && SECRET_FIELD_NAME.test(name);
  if (secret) {
    if (paramSep !== undefined) return `${head}${REDACTED}`;
    const quote = value.startsWith('\\') ? '\\"' : '"'; // JSON quoted inside a JSON string: \"
    return `${head}${quote}${REDACTED}${quote}`;
  }
  // Not a secret name (`monkey=`, a record's `"key":`): its value may still hold a key.
  return `${head}${redactSecrets(value)}`;
}

/**
 * `text` with every secret it holds replaced by `[redacted]`: API keys (`sk_live_…`, `sk_test_…`,
 * anywhere: a path, a message), webhook signing secrets (`whsec_…`), the value of a secret-named
 * query or form parameter (`?api_key=`, `&token=`, `key=`, `access_token=`, `secret=`…), of a
 * secret-named JSON field (`"authorization":`, `"cookie":`, `"set-cookie":[…]`, `"x-api-key":`) and
 * a URL's password (`postgres://user:…@host`).
 * For URLs, messages and whole JSON log lines alike. A bearer credential of another format in free
 * text ("Bearer abc") is not recognised: it is censored only under one of those names.
 */
export function redactSecrets(text: string): string {
  const out = text.replace(CANDIDATES, censor);
  // Apart, behind a one-character check: scanning every `:` of a JSON line for `://` cost as much again.
  return out.includes('@') ? out.replace(URL_PASSWORD, `$1${REDACTED}@`) : out;
}

/** Whether a query parameter, form field or tool argument of this name carries a secret (`api_key`, `token`, `key`…). */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAM_NAME.test(name);
}

/**
 * A copy of `value` (JSON-like: strings, numbers, arrays, plain objects) with every string passed
 * through redactSecrets and the values of secret-named fields censored whole. For what an error
 * echoes back (a 422's inputs).
 */
export function redactSecretsIn(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(redactSecretsIn);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isSecretParam(k) && v !== null && v !== undefined ? REDACTED : redactSecretsIn(v);
  return out;
}
