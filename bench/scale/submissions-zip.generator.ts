import { createWriteStream, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ZipStream from 'zip-stream';

/*
 * A synthetic submissions.zip shaped like SEC's nightly archive, made from the real fixture
 * submissions files: entity i is fixture i % F under CIK 5000000 + i, with a slice of its recent
 * filings (1 to 43 rows, 22 on average: EDGAR's ~20M filings over ~900,000 entity files) under
 * distinct accessions; every 25th entity also has an overflow file
 * (`CIK##########-submissions-001.json`, filing columns only) of 100 older rows, listed in its main
 * file's `filings.files`, as SEC does for long filing histories, and stored before it (name order). Entries are made one at a time and
 * handed to zip-stream, which deflates and writes each before taking the next, so the archive is
 * never in memory and the time is linear in the entry count (yazl scans its whole entry list for the
 * next entry to write: quadratic, 270 s for 200,000 entries). Past 65,535 entries zip-stream writes
 * the ZIP64 end-of-central-directory records, as SEC's archive (~900,000 entries) has.
 */

type Columns = Record<string, unknown[]>;

/**
 * zip-stream as is, but each central directory record goes out as one chunk. zip-stream writes the
 * whole central directory at finalize, ~19 small writes per entry with no pause for the reader to
 * drain (compress-commons#92, open): 200,000 entries queued ~3.8M chunks, 1.8 GB at peak.
 */
class SubmissionsZipStream extends ZipStream {
  override _writeCentralFileHeader(entry: Parameters<ZipStream['_writeCentralFileHeader']>[0]): void {
    const parts: Buffer[] = [];
    // The record writer's only use of `this` is write(), of Buffers and of strings (the name: UTF-8 as the stream would write it).
    super._writeCentralFileHeader.call({ write: (chunk: Buffer | string) => parts.push(Buffer.from(chunk)) }, entry);
    this.write(Buffer.concat(parts));
  }
}

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

  // Level 6, zlib's and yazl's default, as the archives measured so far (zip-stream's own default is 1).
  const zip = new SubmissionsZipStream({ zlib: { level: 6 } });
  const written = new Promise<void>((ok, fail) => {
    const out = createWriteStream(path);
    out.on('error', fail);
    zip.on('error', fail);
    zip.pipe(out).on('close', () => ok());
  });
  let files = 0;
  let mainFiles = 0;
  let overflowFiles = 0;
  let filings = 0;
  const date = new Date();
  // zip-stream takes one entry at a time; the next entry's JSON is made while the previous one
  // deflates (in zlib's thread pool). Racing `written` ends the loop at a write error.
  let previous: Promise<void> = Promise.resolve();
  const add = async (name: string, make: () => unknown): Promise<void> => {
    const bytes = Buffer.from(JSON.stringify(make()));
    await Promise.race([previous, written]);
    previous = new Promise((ok, fail) => zip.entry(bytes, { name, date }, (err) => (err ? fail(err) : ok())));
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
    // SEC's name order: `CIK…-submissions-001.json` sorts before `CIK….json` ('-' < '.'), so an
    // overflow file comes first and the backfill holds it until its main file names the company.
    if (overflowCount) {
      await add(overflowName, () => slice(base.json.filings.recent, from + recentCount, overflowCount, prefix, 500_000));
      files += 1;
      overflowFiles += 1;
      filings += overflowCount;
    }
    await add(`CIK${cik}.json`, () => {
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
  }
  await Promise.race([previous, written]);
  zip.finalize();
  await written;
  return { path, entityFiles: files, mainFiles, overflowFiles, filings, bytes: statSync(path).size, seconds: (performance.now() - t0) / 1000 };
}
