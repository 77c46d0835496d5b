import type { RosterEntryRecord } from '@app/persistence';
import type { RosterCategory } from '@app/contracts';
import type { RosterEntryBody } from './executives.schemas';

/** Read model -> the spec's roster entry (plus email and phone). */
export function toRosterEntry(r: RosterEntryRecord): RosterEntryBody {
  return {
    name: r.name,
    role: r.role,
    category: r.category as RosterCategory,
    affiliation: r.affiliation,
    rank: r.rank,
    is_current: r.isCurrent,
    email: r.email,
    phone: r.phone,
    provenance: {
      src_id: r.srcId,
      source_provider: r.sourceProvider,
      source_url: r.sourceUrl,
      accession: r.accession,
      quote: r.quote,
      content_hash: r.contentHash,
      extracted_at: r.extractedAt ? r.extractedAt.toISOString() : null,
    },
  };
}
