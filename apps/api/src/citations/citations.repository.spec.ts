import { IssuerOriginsRepository } from './citations.repository';

/** Stands in for the one statement the repository sends; the statement itself runs against Postgres in test/citations.e2e-spec.ts. */
class Origins {
  calls: unknown[][] = [];
  rows: Array<{ origin: string | null }> = [];
  failing = false;
  async query<T>(_sql: string, params: unknown[]): Promise<T> {
    this.calls.push(params);
    await new Promise((r) => setImmediate(r));
    if (this.failing) throw new Error('connection lost');
    return this.rows as T;
  }
}

describe('IssuerOriginsRepository', () => {
  it('loads the whole set in one query, shared by concurrent callers, and reloads it only after refreshMs', async () => {
    let now = 0;
    const db = new Origins();
    db.rows = [{ origin: 'https://www.frpholdings.com' }, { origin: 'HTTPS://IR.Example.COM:443' }, { origin: null }, { origin: 'not a url' }];
    const repo = new IssuerOriginsRepository(db, { refreshMs: 1000, now: () => now });
    const answers = await Promise.all(['https://www.frpholdings.com', 'https://ir.example.com', 'https://evil.example', 'http://www.frpholdings.com'].map((o) => repo.isKnownIssuerOrigin(o)));
    expect(answers).toEqual([true, true, false, false]);
    expect(db.calls).toHaveLength(1);
    // Unknown origins do not query again (no per-origin scan, nothing to fill a cache with).
    for (let i = 0; i < 100; i += 1) await repo.isKnownIssuerOrigin(`https://random${i}.example`);
    expect(db.calls).toHaveLength(1);
    db.rows.push({ origin: 'https://new.example' });
    now = 999;
    expect(await repo.isKnownIssuerOrigin('https://new.example')).toBe(false);
    now = 1000;
    expect(await repo.isKnownIssuerOrigin('https://new.example')).toBe(true);
    expect(db.calls).toHaveLength(2);
  });

  it('is bounded: asks for one row more than maxOrigins, keeps maxOrigins and reports the rest', async () => {
    const db = new Origins();
    db.rows = Array.from({ length: 4 }, (_, i) => ({ origin: `https://s${i}.example` }));
    const truncated: number[] = [];
    const repo = new IssuerOriginsRepository(db, { maxOrigins: 3, onTruncated: (n) => truncated.push(n) });
    expect(await repo.isKnownIssuerOrigin('https://s2.example')).toBe(true);
    expect(await repo.isKnownIssuerOrigin('https://s3.example')).toBe(false);
    expect(db.calls).toEqual([[4]]);
    expect(truncated).toEqual([3]);
  });

  it('keeps the previous set when a refresh fails; with none, the failure is the caller\'s', async () => {
    let now = 0;
    const db = new Origins();
    db.failing = true;
    const repo = new IssuerOriginsRepository(db, { refreshMs: 10, now: () => now });
    await expect(repo.isKnownIssuerOrigin('https://a.example')).rejects.toThrow('connection lost');
    db.failing = false;
    db.rows = [{ origin: 'https://a.example' }];
    expect(await repo.isKnownIssuerOrigin('https://a.example')).toBe(true);
    db.failing = true;
    now = 50;
    expect(await repo.isKnownIssuerOrigin('https://a.example')).toBe(true);
    expect(db.calls).toHaveLength(3);
  });
});
