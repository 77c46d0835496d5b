import { runChecks, startOpsServer, type OpsServer, type Readiness } from './ops-server';

const logger = { info: () => undefined, warn: () => undefined };

describe('ops server (loopback)', () => {
  let server: OpsServer;
  let readiness: () => Promise<Readiness>;
  let metrics: () => Promise<string>;
  const get = (path: string, method = 'GET') => fetch(`http://127.0.0.1:${server.port}${path}`, { method });

  beforeAll(async () => {
    server = await startOpsServer({ host: '127.0.0.1', port: 0, logger, ready: () => readiness(), metrics: () => metrics() });
  });
  afterAll(() => server.close());

  it('answers /healthz while the process runs', async () => {
    const res = await get('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 when every check passes, 503 with the failing checks otherwise', async () => {
    readiness = () => runChecks({ postgres: () => undefined, consumer: async () => undefined });
    let res = await get('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', consumer: 'ok' } });
    readiness = () =>
      runChecks({
        postgres: () => {
          throw new Error('connection refused');
        },
        consumer: () => undefined,
      });
    res = await get('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not_ready', checks: { postgres: 'connection refused', consumer: 'ok' } });
    readiness = () => Promise.reject(new Error('boom'));
    res = await get('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'not_ready', checks: { error: 'boom' } });
  });

  it('serves /metrics as Prometheus text; a collection that fails is a 500, not a crash', async () => {
    metrics = async () => '# HELP x h\n# TYPE x gauge\nx 1\n';
    let res = await get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await res.text()).toBe('# HELP x h\n# TYPE x gauge\nx 1\n');
    metrics = () => Promise.reject(new Error('broken'));
    res = await get('/metrics');
    expect(res.status).toBe(500);
    expect((await get('/healthz')).status).toBe(200);
  });

  it('404 for other paths, 405 for other methods', async () => {
    expect((await get('/nope')).status).toBe(404);
    const post = await get('/metrics', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('runChecks', () => {
  it('bounds each check by the timeout', async () => {
    const r = await runChecks({ slow: () => new Promise((resolve) => setTimeout(resolve, 1_000)), fast: () => 1 }, 50);
    expect(r).toEqual({ ready: false, checks: { slow: 'slow took longer than 50 ms', fast: 'ok' } });
  });
});
