import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZipFile } from 'yazl';
import { openZipFile, readEntry } from './zip.source';

/** Writes a zip of these entries (deflated unless `store`) and resolves once it is on disk. */
function writeZip(path: string, entries: Array<{ name: string; bytes: Buffer; store?: boolean }>): Promise<void> {
  const zip = new ZipFile();
  for (const e of entries) zip.addBuffer(e.bytes, e.name, { compress: !e.store });
  zip.end();
  return new Promise((resolve, reject) => zip.outputStream.pipe(createWriteStream(path)).on('close', resolve).on('error', reject));
}

describe('zip archive of a local file', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'zip-source-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every entry as written, stored or deflated, across the 1 MiB blocks it reads the file in', async () => {
    // Incompressible entries of 300-700 KB: entries, local headers and central directory records straddle block boundaries.
    const entries: Array<{ name: string; bytes: Buffer; store?: boolean }> = Array.from({ length: 12 }, (_, i) => ({ name: `CIK${String(i).padStart(10, '0')}.json`, bytes: randomBytes(300_000 + i * 37_000), store: i % 2 === 0 }));
    entries.push({ name: 'text.json', bytes: Buffer.from(JSON.stringify({ rows: Array.from({ length: 50_000 }, (_, i) => `row ${i}`) })) });
    const path = join(dir, 'a.zip');
    await writeZip(path, entries);
    const archive = await openZipFile(path);
    try {
      const read: Array<{ name: string; bytes: Buffer }> = [];
      for await (const entry of archive.zip.eachEntry()) read.push({ name: entry.fileName, bytes: await readEntry(archive.zip, entry) });
      expect(read.map((r) => r.name)).toEqual(entries.map((e) => e.name));
      read.forEach((r, i) => expect(r.bytes.equals(entries[i]!.bytes)).toBe(true));
    } finally {
      archive.close();
    }
  });
});
