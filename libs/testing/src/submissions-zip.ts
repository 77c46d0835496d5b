import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZipFile } from 'yazl';
import { defaultFixturesDir } from './fixture-server';

/** One file of a submissions.zip: its name in the archive and its bytes. */
export interface SubmissionsZipEntry {
  name: string;
  bytes: Buffer;
}

/** Where SEC publishes the nightly archive on www.sec.gov. */
export const SUBMISSIONS_ZIP_PATH = '/Archives/edgar/daily-index/bulkdata/submissions.zip';

type Columns = Record<string, unknown[]>;

/**
 * Splits a real submissions JSON as SEC does when a company has too many filings: the newest
 * `keepRecent` rows stay in `filings.recent`, the older ones move to `CIK##########-submissions-001.json`,
 * whose top level is the same columns object (SEC's overflow layout), and `filings.files` lists it.
 * Every filing is kept, in one file or the other: nothing is typed by hand.
 */
export function splitSubmissions(main: Buffer, keepRecent: number): { main: SubmissionsZipEntry; overflow: SubmissionsZipEntry } {
  const json = JSON.parse(main.toString('utf8')) as { cik: string | number; filings: { recent: Columns; files: unknown[] } };
  const cik = String(json.cik).padStart(10, '0');
  const recent = json.filings.recent;
  const overflow: Columns = {};
  const kept: Columns = {};
  for (const [column, values] of Object.entries(recent)) {
    kept[column] = values.slice(0, keepRecent);
    overflow[column] = values.slice(keepRecent);
  }
  const dates = (overflow.filingDate ?? []).filter((d): d is string => typeof d === 'string').sort();
  const name = `CIK${cik}-submissions-001.json`;
  json.filings = {
    recent: kept,
    files: [{ name, filingCount: overflow.accessionNumber?.length ?? 0, filingFrom: dates[0] ?? '', filingTo: dates.at(-1) ?? '' }],
  };
  return {
    main: { name: `CIK${cik}.json`, bytes: Buffer.from(JSON.stringify(json)) },
    overflow: { name, bytes: Buffer.from(JSON.stringify(overflow)) },
  };
}

/**
 * The entity files of a submissions.zip made from the real fixture submissions (Murphy Oil,
 * Microsoft, Tesla). Microsoft and Tesla keep their newest 400 filings in the main file and the
 * rest in an overflow file. Entries are in name order (`CIK…-submissions-001.json` sorts before
 * `CIK….json`), except Tesla's overflow file, which comes after its main file: a reader must
 * handle both orders.
 */
export function fixtureSubmissionsEntries(fixturesDir = defaultFixturesDir()): SubmissionsZipEntry[] {
  const read = (cik: string) => readFileSync(join(fixturesDir, 'submissions', `CIK${cik}.json`));
  const msft = splitSubmissions(read('0000789019'), 400);
  const tsla = splitSubmissions(read('0001318605'), 400);
  return [{ name: 'CIK0000717423.json', bytes: read('0000717423') }, msft.overflow, msft.main, tsla.main, tsla.overflow];
}

/** Writes `entries` as a deflated zip at `path`, in that order (yazl: zip64 when needed, like SEC's). */
export function writeZip(path: string, entries: Iterable<SubmissionsZipEntry>): Promise<void> {
  const zip = new ZipFile();
  const done = new Promise<void>((resolve, reject) => {
    const out = createWriteStream(path);
    out.on('close', () => resolve());
    out.on('error', reject);
    zip.outputStream.on('error', reject).pipe(out);
  });
  for (const entry of entries) zip.addBuffer(entry.bytes, entry.name, { mtime: new Date('2025-08-02T00:00:00Z') });
  zip.end();
  return done;
}
