import { createWriteStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';

/*
 * A synthetic submissions.zip shaped like SEC's nightly archive, made from the real fixture
 * submissions files: entity i is fixture i % F under CIK 5000000 + i, with a slice of its recent
 * filings (1 to 43 rows, 22 on average: EDGAR's ~20M filings over ~900,000 entity files) under
 * distinct accessions; every 25th entity also has an overflow file
 * (`CIK##########-submissions-001.json`, filing columns only) of 100 older rows, listed in its main
 * file's `filings.files`, as SEC does for long filing histories. Entries are generated lazily as
 * yazl deflates them (addReadStreamLazy), so the archive is never in memory.
 */

type Columns = Record<string, unknown[]>;

interface Base {
  json: Record<string, unknown> & { name?: string; filings: { recent: Columns } };
  rows: number;
}

export interface GeneratedZip {
  path: string;
  entityFiles: number;
  mainFiles: number;
  overflowFiles: number;
  filings: number;
  bytes: number;
  seconds: number;
}

const OVERFLOW_EVERY = 25;
const OVERFLOW_ROWS = 100;

function slice(recent: Columns, from: number, count: number, accessionPrefix: string, seq0: number): Columns {
  const out: Columns = {};
  for (const [k, v] of Object.entries(recent)) out[k] = Array.isArray(v) ? v.slice(from, from + count) : v;
  const accessions = (out.accessionNumber ?? []) as string[];
  out.accessionNumber = accessions.map((a, j) => `${accessionPrefix}-${a.slice(11, 13)}-${String(seq0 + j).padStart(6, '0')}`);
  return out;
}

/** Writes the archive of `entityFiles` entity files (main and overflow files together) to `path`. */
export async function generateSubmissionsZip(fixturesDir: string, path: string, entityFiles: number): Promise<GeneratedZip> {
  const t0 = performance.now();
  const dir = join(fixturesDir, 'submissions');
  const bases: Base[] = readdirSync(dir)
    .filter((f) => /^CIK\d{10}\.json$/.test(f))
    .sort()
    .map((f) => {
      const json = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Base['json'];
      return { json, rows: (json.filings.recent.accessionNumber ?? []).length };
    });
  if (bases.length === 0) throw new Error(`no submissions fixtures in ${dir}`);

  const zip = new ZipFile();
  const written = new Promise<void>((ok, fail) => {
    const out = createWriteStream(path);
    out.on('error', fail);
    zip.outputStream.on('error', fail);
    zip.outputStream.pipe(out).on('close', () => ok());
  });
  let files = 0;
  let mainFiles = 0;
  let overflowFiles = 0;
  let filings = 0;
  const lazy = (name: string, make: () => unknown): void => {
    zip.addReadStreamLazy(name, (cb) => cb(null, Readable.from([Buffer.from(JSON.stringify(make()))])));
  };
  for (let i = 0; files < entityFiles; i += 1) {
    const base = bases[i % bases.length]!;
    const cik = String(5_000_000 + i).padStart(10, '0');
    // Filer id of the copied accessions: 9 + the entity number (no real filer id starts with 9 and has 10 digits here).
    const prefix = String(9_000_000_000 + i);
    const count = 1 + ((i * 7) % 43);
    const from = (i * 13) % Math.max(1, base.rows - count - OVERFLOW_ROWS);
    const overflow = i % OVERFLOW_EVERY === OVERFLOW_EVERY - 1 && files + 2 <= entityFiles;
    const overflowName = `CIK${cik}-submissions-001.json`;
    const recentCount = Math.min(count, base.rows - from);
    const overflowCount = overflow ? Math.min(OVERFLOW_ROWS, Math.max(0, base.rows - from - recentCount)) : 0;
    lazy(`CIK${cik}.json`, () => {
      const recent = slice(base.json.filings.recent, from, recentCount, prefix, 0);
      const dates = (base.json.filings.recent.filingDate ?? []) as string[];
      const olderFrom = from + recentCount;
      return {
        ...base.json,
        cik,
        name: `SCALE ${i} ${base.json.name ?? ''}`.trim(),
        tickers: [],
        exchanges: [],
        filings: {
          recent,
          files: overflowCount
            ? [{ name: overflowName, filingCount: overflowCount, filingFrom: dates[olderFrom + overflowCount - 1] ?? null, filingTo: dates[olderFrom] ?? null }]
            : [],
        },
      };
    });
    files += 1;
    mainFiles += 1;
    filings += recentCount;
    if (overflowCount) {
      lazy(`CIK${cik}-submissions-001.json`, () => slice(base.json.filings.recent, from + recentCount, overflowCount, prefix, 500_000));
      files += 1;
      overflowFiles += 1;
      filings += overflowCount;
    }
  }
  zip.end();
  await written;
  return { path, entityFiles: files, mainFiles, overflowFiles, filings, bytes: statSync(path).size, seconds: (performance.now() - t0) / 1000 };
}
