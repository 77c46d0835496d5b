import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrawlStateStore } from './crawl-state.store';

describe('CrawlStateStore (JSON state file)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ir-state-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps validators across instances through the file', () => {
    const path = join(dir, 'state.json');
    const first = new CrawlStateStore(path);
    first.set('https://ir.example.com/', { etag: '"v1"', contentHash: `sha256:${'a'.repeat(64)}`, next: { contact: ['https://ir.example.com/contact'] } });
    first.save();
    expect(new CrawlStateStore(path).get('https://ir.example.com/')).toEqual({ etag: '"v1"', contentHash: `sha256:${'a'.repeat(64)}`, next: { contact: ['https://ir.example.com/contact'] } });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 1 });
  });

  it('throws on a broken file unless told to ignore it', () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{not json');
    expect(() => new CrawlStateStore(path)).toThrow();
    expect(new CrawlStateStore(path, { ignoreExisting: true }).get('x')).toBeUndefined();
  });
});
