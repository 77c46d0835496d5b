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

/**
 * The concepts of a real company-facts file that hold at least one report (`<taxonomy>:<concept>`),
 * read from the raw JSON without the project's parser: what a load of that file must publish.
 */
export function companyFactsConcepts(bytes: Buffer): string[] {
  const json = JSON.parse(bytes.toString('utf8')) as { facts: Record<string, Record<string, { units: Record<string, unknown[]> }>> };
  return Object.entries(json.facts).flatMap(([taxonomy, concepts]) =>
    Object.entries(concepts)
      .filter(([, c]) => Object.values(c.units).some((entries) => entries.length > 0))
      .map(([name]) => `${taxonomy}:${name}`),
  );
}
