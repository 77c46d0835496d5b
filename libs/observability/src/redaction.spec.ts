import { isSecretParam, REDACTED, redactSecrets, redactSecretsIn } from './redaction';

const LIVE_KEY = 'sk_live_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde';
const TEST_KEY = 'sk_test_fedcba9876543210_zyxwvutsrqponmlkjihgfedcba9876543210_-ZYXWV';
const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+Yq/4Tv1p7s=';

describe('redactSecrets', () => {
  it.each([
    // A key in the query string, under any of the names clients use, and with other parameters around it.
    [`/v1/companies?api_key=${LIVE_KEY}`, `/v1/companies?api_key=${REDACTED}`],
    [`/v1/companies?limit=5&apikey=${LIVE_KEY}&cursor=abc`, `/v1/companies?limit=5&apikey=${REDACTED}&cursor=abc`],
    ['/v1/filings?key=AIzaSyD-opaque&forms=10-K', `/v1/filings?key=${REDACTED}&forms=10-K`],
    ['/v1/filings?token=opaque-123#frag', `/v1/filings?token=${REDACTED}#frag`],
    ['/cb?access_token=ya29.a0AfH6SM&state=xyz', `/cb?access_token=${REDACTED}&state=xyz`],
    ['/cb?secret=hunter2;other=1', `/cb?secret=${REDACTED};other=1`],
    ['/cb?API_KEY=abc&Token=def', `/cb?API_KEY=${REDACTED}&Token=${REDACTED}`],
    ['https://hooks.example.com/in?x_api_key=abc&sig=deadbeef', `https://hooks.example.com/in?x_api_key=${REDACTED}&sig=${REDACTED}`],
    // Percent-encoded: a URL inside a query parameter (censored to the end of the outer value).
    ['/r?next=https%3A%2F%2Fx.example%2Fcb%3Ftoken%3Dabc123%26a%3D1&b=2', `/r?next=https%3A%2F%2Fx.example%2Fcb%3Ftoken%3D${REDACTED}&b=2`],
    ['/r?next=%3Fkey%3Dabc', `/r?next=%3Fkey%3D${REDACTED}`],
    // Our keys anywhere: a path segment, a message, percent-encoded, a value under a harmless name.
    [`/v1/companies/${TEST_KEY}/filings`, `/v1/companies/sk_test_${REDACTED}/filings`],
    [`no company is listed under the symbol '${LIVE_KEY}'.`, `no company is listed under the symbol 'sk_live_${REDACTED}'.`],
    ['/v1/companies/sk%5Flive%5F0123456789abcdef_abc', `/v1/companies/sk%5Flive%5F${REDACTED}`],
    [`/v1/search?q=${LIVE_KEY}`, `/v1/search?q=sk_live_${REDACTED}`],
    [`/v1/search?monkey=${LIVE_KEY}`, `/v1/search?monkey=sk_live_${REDACTED}`],
    [`rotated: ${WEBHOOK_SECRET}.`, `rotated: whsec_${REDACTED}.`],
    // A URL's password.
    ['connect postgres://app:s3cr%40t@db.internal:5432/filings failed', `connect postgres://app:${REDACTED}@db.internal:5432/filings failed`],
    ['{"url":"https://user:pw@hooks.example.com/in"}', `{"url":"https://user:${REDACTED}@hooks.example.com/in"}`],
    // JSON: header objects, bodies, whole log lines.
    [
      '{"headers":{"host":"api","authorization":"Bearer abc.def","proxy-authorization":"Basic dXNlcjpwdw==","cookie":"sid=1; theme=dark","x-api-key":"k1"}}',
      `{"headers":{"host":"api","authorization":"${REDACTED}","proxy-authorization":"${REDACTED}","cookie":"${REDACTED}","x-api-key":"${REDACTED}"}}`,
    ],
    ['{"set-cookie":["sid=1; HttpOnly","csrf=2"],"status":200}', `{"set-cookie":"${REDACTED}","status":200}`],
    ['{"Authorization": "Bearer x", "Set-Cookie": ["a=b"]}', `{"Authorization": "${REDACTED}", "Set-Cookie": "${REDACTED}"}`],
    [`{"signing_secret":"${WEBHOOK_SECRET}","id":"we_1"}`, `{"signing_secret":"${REDACTED}","id":"we_1"}`],
    ['{"leaseToken":"t-1","apiKey":"k","password":"p","client_secret":"s"}', `{"leaseToken":"${REDACTED}","apiKey":"${REDACTED}","password":"${REDACTED}","client_secret":"${REDACTED}"}`],
    // JSON quoted inside a JSON string (a body in an error message).
    ['{"msg":"bad body {\\"token\\":\\"abc\\",\\"n\\":1}"}', `{"msg":"bad body {\\"token\\":\\"${REDACTED}\\",\\"n\\":1}"}`],
    // An escaped quote inside a value does not end it early.
    ['{"url":"/x?token=ab\\"cd&y=1"}', `{"url":"/x?token=${REDACTED}&y=1"}`],
    // A whole request log line.
    [
      `{"level":30,"time":"2026-11-29T04:17:47.123Z","name":"api","request_id":"req_1","method":"GET","url":"/v1/companies?api_key=${LIVE_KEY}","status":401,"msg":"request"}`,
      `{"level":30,"time":"2026-11-29T04:17:47.123Z","name":"api","request_id":"req_1","method":"GET","url":"/v1/companies?api_key=${REDACTED}","status":401,"msg":"request"}`,
    ],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it.each([
    // What must stay: Kafka record keys, ids, our own help texts, ordinary parameters and fields.
    '{"level":30,"topic":"filings.v1","key":"0000320193","partition":0,"offset":"12","msg":"record"}',
    '{"key_id":"key_0123456789abcdef","record_key":"0000320193-24-000001","idempotency":"x"}',
    '/v1/companies/AAPL/filings?limit=10&forms=10-K&cursor=eyJ0IjoxfQ&since=2024-01-01',
    'An API key is required: send Authorization: Bearer sk_live_... (or sk_test_...).',
    'Webhooks need the builder plan or above; sk_test_ keys are clamped to the free plan.',
    '`signing_secret` (whsec_...), shown only in this response',
    '{"monkey":"banana","tokens":3,"secrets_count":0,"keyboard":"qwerty"}',
    'https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0000320193&type=10-K',
    'redis://127.0.0.1:6379 and http://[::1]:8080/x and https://user@host.example/',
    '',
  ])('leaves %s as it is', (input) => {
    expect(redactSecrets(input)).toBe(input);
  });

  it('redacts a key however many times it appears', () => {
    const out = redactSecrets(`${LIVE_KEY} ${TEST_KEY} ${LIVE_KEY}`);
    expect(out).toBe(`sk_live_${REDACTED} sk_test_${REDACTED} sk_live_${REDACTED}`);
  });
});

describe('isSecretParam', () => {
  it.each(['api_key', 'apikey', 'key', 'token', 'access_token', 'secret', 'X-Api-Key', 'authorization', 'cookie', 'password', 'sig', 'client_secret'])('%s is secret', (name) => {
    expect(isSecretParam(name)).toBe(true);
  });
  it.each(['limit', 'cursor', 'symbol', 'forms', 'key_id', 'record_key', 'tokens', 'q', 'monkey'])('%s is not', (name) => {
    expect(isSecretParam(name)).toBe(false);
  });
});

describe('redactSecretsIn', () => {
  it('censors secret-named fields whole and secrets inside every string, at any depth, without touching the input', () => {
    const input = {
      url: 'https://hooks.example.com/in?token=abc',
      topics: ['filing.created', TEST_KEY],
      nested: { api_key: { anything: 1 }, limit: 5, note: null },
      token: null,
    };
    const copy = structuredClone(input);
    expect(redactSecretsIn(input)).toEqual({
      url: `https://hooks.example.com/in?token=${REDACTED}`,
      topics: ['filing.created', `sk_test_${REDACTED}`],
      nested: { api_key: REDACTED, limit: 5, note: null },
      token: null,
    });
    expect(input).toEqual(copy);
  });
});
