import type { DataSource } from 'typeorm';
import type { IssuerOriginRegistry } from '@app/citations';

/*
 * An origin is an issuer's when some issuer page or document the projector stored lives there:
 * a document (its URL, the IR page that links it, the URL its text was read from), an issuer-page
 * roster entry, or an issuer description.
 */
const KNOWN_ORIGIN_SQL = `
  SELECT EXISTS (SELECT 1 FROM documents WHERE starts_with(url, $1) OR starts_with(found_on, $1) OR starts_with(text_source_url, $1))
      OR EXISTS (SELECT 1 FROM roster_entries WHERE source_provider = 'issuer_page' AND starts_with(source_url, $1))
      OR EXISTS (SELECT 1 FROM company_descriptions WHERE starts_with(source_url, $1)) AS known`;

const MAX_REMEMBERED = 1024;

/** Issuer origins from the read models, each answer remembered for `ttlMs` (a bounded map). */
export class IssuerOriginsRepository implements IssuerOriginRegistry {
  private readonly answers = new Map<string, { known: boolean; until: number }>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly ttlMs = 60_000,
  ) {}

  async isKnownIssuerOrigin(origin: string): Promise<boolean> {
    const now = Date.now();
    const held = this.answers.get(origin);
    if (held && held.until > now) return held.known;
    const rows = await this.dataSource.query<Array<{ known: boolean }>>(KNOWN_ORIGIN_SQL, [`${origin}/`]);
    const known = rows[0]?.known === true;
    if (this.answers.size >= MAX_REMEMBERED) this.answers.clear();
    this.answers.set(origin, { known, until: now + this.ttlMs });
    return known;
  }
}
