import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { canonicalJson, readJsonCheckpoint, removeJsonCheckpoint, selectionHash, writeJsonCheckpoint } from './index';

const schema = z.object({ kind: z.literal('test-run'), done: z.array(z.string()) });

describe('JSON checkpoints', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'checkpoints-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('none yet is null; a written one reads back; removed, it is none again', async () => {
    const path = join(dir, 'nested', 'run.json');
    expect(await readJsonCheckpoint(path, schema, 'test-run')).toBeNull();
    await writeJsonCheckpoint(path, { kind: 'test-run', done: ['a', 'b'] });
    expect(await readJsonCheckpoint(path, schema, 'test-run')).toEqual({ kind: 'test-run', done: ['a', 'b'] });
    // Written beside and renamed over: no temporary file is left.
    expect(readdirSync(join(dir, 'nested'))).toEqual(['run.json']);
    await removeJsonCheckpoint(path);
    await removeJsonCheckpoint(path);
    expect(await readJsonCheckpoint(path, schema, 'test-run')).toBeNull();
  });

  it('a checkpoint of another kind is an error naming it, never a silent restart', async () => {
    const path = join(dir, 'run.json');
    writeFileSync(path, JSON.stringify({ kind: 'sec-companies', covered_done: 3 }));
    await expect(readJsonCheckpoint(path, schema, 'test-run')).rejects.toThrow(`checkpoint ${path} is not a test-run checkpoint: kind:`);
    writeFileSync(path, '{"kind": "test-run", "done": [');
    await expect(readJsonCheckpoint(path, schema, 'test-run')).rejects.toThrow(SyntaxError);
    expect(readFileSync(path, 'utf8')).toBe('{"kind": "test-run", "done": [');
  });
});

describe('selectionHash', () => {
  const selector = (tickers: string[], ciks: string[]) => ({ kind: 'list', tickers: new Set(tickers), ciks: new Set(ciks) });

  it('tells apart selections that differ only in the members of a Set (plain JSON writes a Set as {})', () => {
    expect(JSON.stringify(selector(['MSFT'], []))).toBe(JSON.stringify(selector(['AAPL'], [])));
    expect(selectionHash({ submissions: selector(['MSFT'], []) })).not.toBe(selectionHash({ submissions: selector(['AAPL'], []) }));
    expect(selectionHash({ submissions: selector([], ['0000789019']) })).not.toBe(selectionHash({ submissions: selector([], ['0000320193']) }));
  });

  it('is the same for the same selection whatever the order of keys and Set members', () => {
    expect(selectionHash({ a: 1, s: selector(['MSFT', 'AAPL'], []) })).toBe(selectionHash({ s: selector(['AAPL', 'MSFT'], []), a: 1 }));
    expect(selectionHash({ a: 1, from: undefined })).toBe(selectionHash({ a: 1 }));
    expect(selectionHash({ filings: ['x', 'y'] })).not.toBe(selectionHash({ filings: ['y', 'x'] }));
    expect(selectionHash({ latest: 20 })).not.toBe(selectionHash({ latest: 21 }));
    expect(canonicalJson({ b: new Map([['k', new Set([2, 1])]]), a: null })).toBe('{"a":null,"b":[["k",[1,2]]]}');
    expect(selectionHash('x')).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
