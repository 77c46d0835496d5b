import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { openPromise, type Entry, type ZipFile } from 'yauzl';
import { parseRecentFilings, parseSubmissions, parseSubmissionsOverflow } from '@app/edgar';
import { defaultFixturesDir } from '@app/testing';
import { generateSubmissionsZip } from './submissions-zip.generator';

/** Every entry in archive order, read with yauzl as the bulk backfill reads the archive. */
async function readAll(zip: ZipFile): Promise<{ name: string; text: string }[]> {
  const out: { name: string; text: string }[] = [];
  for (;;) {
    const entry = await new Promise<Entry | null>((ok, fail) => {
      zip.once('entry', ok).once('end', () => ok(null)).once('error', fail);
      zip.readEntry();
    });
    zip.removeAllListeners('entry').removeAllListeners('end').removeAllListeners('error');
    if (!entry) return out;
    out.push({ name: entry.fileName, text: await text(await zip.openReadStreamPromise(entry)) });
  }
}

describe('generateSubmissionsZip', () => {
  const dir = mkdtempSync(join(tmpdir(), 'submissions-zip-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the entity files, overflow files listed in their main file, that the bulk parsers read', async () => {
    const path = join(dir, 'submissions.zip');
    const made = await generateSubmissionsZip(defaultFixturesDir(), path, 60);
    const zip = await openPromise(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
    try {
      expect(zip.entryCount).toBe(60);
      const entries = await readAll(zip);
      expect(made).toMatchObject({ entityFiles: 60, mainFiles: 58, overflowFiles: 2 });
      // Entity 24 (the 25th) has an overflow file, right before its main file as in SEC's name order.
      expect(entries.slice(24, 26).map((e) => e.name)).toEqual(['CIK0005000024-submissions-001.json', 'CIK0005000024.json']);

      let filings = 0;
      const byName = new Map(entries.map((e) => [e.name, e.text]));
      for (const { name, text: json } of entries.filter((e) => !e.name.includes('-submissions-'))) {
        const company = parseSubmissions(json);
        expect(name).toBe(`CIK${company.cik}.json`);
        filings += parseRecentFilings(json).length;
        for (const listed of company.filingFiles) {
          const overflow = parseSubmissionsOverflow(byName.get(listed.name) ?? '');
          expect(overflow).toHaveLength(listed.filingCount ?? -1);
          filings += overflow.length;
        }
      }
      expect(filings).toBe(made.filings);
    } finally {
      zip.close();
    }
  });
});
