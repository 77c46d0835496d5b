import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from './fixture-server';
import type { SubmissionsZipEntry } from './submissions-zip';

/** Where SEC publishes the nightly company-facts archive on www.sec.gov. */
export const COMPANY_FACTS_ZIP_PATH = '/Archives/edgar/daily-index/xbrl/companyfacts.zip';

/**
 * The entries of a companyfacts.zip made from the real company-facts files of `xbrl/` (AAPL, GOOGL,
 * LPA, SNOW): each file unchanged, named `CIK##########.json` as in SEC's archive, in name order.
 */
export function fixtureCompanyFactsEntries(fixturesDir = defaultFixturesDir()): SubmissionsZipEntry[] {
  return readdirSync(join(fixturesDir, 'xbrl'))
    .flatMap((file) => {
      const name = /-companyfacts-(CIK\d{10}\.json)$/.exec(file)?.[1];
      return name ? [{ name, bytes: readFileSync(join(fixturesDir, 'xbrl', file)) }] : [];
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}
