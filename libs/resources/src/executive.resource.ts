import { z } from 'zod';
import { ROSTER_CATEGORIES, type RosterCategory } from '@app/contracts';
import type { RosterEntryRecord } from '@app/persistence';
import { gapSchema } from './gap.resource';
import { companyReferenceSchema, dateField, paginationSchema, provenanceSchema } from './shared.resource';

export const rosterEntrySchema = z.object({
  name: z.string().describe('Person as printed by the source (SEC entries: as filed, often "LAST FIRST MIDDLE")'),
  role: z.string().describe('Role as printed ("Chief Executive Officer", "Investor Relations"; "Analyst" for analysts); SEC entries: the officer title as filed, "Director", or "<title>, Director"'),
  category: z.enum(ROSTER_CATEGORIES),
  affiliation: z.string().describe('The company, its IR agency, or the analyst\'s research firm'),
  rank: z.number().int().describe('1-based: position in the executives roster (issuer page order, then SEC-only people by seniority), page order for IR contacts and analysts'),
  is_current: z.boolean().describe('Issuer pages: the latest roster still lists the person. SEC: a Form 4 of the last 18 months shows them as officer or director and no later one without'),
  email: z.string().nullable().describe('As printed; null when the source gives none'),
  phone: z.string().nullable().describe('As printed; null when the source gives none'),
  provenance: provenanceSchema,
});

export const executivesSchema = z.object({
  company: companyReferenceSchema,
  data: z.array(rosterEntrySchema),
  pagination: paginationSchema,
  as_of: dateField().optional().describe('With ?as_of=: the day the roster is as of (is_current as of that day)'),
  gaps: z.array(gapSchema).optional().describe('With ?as_of=: the rule is_current follows that day, and what the stored crawls cannot tell'),
});

export type RosterEntryBody = z.infer<typeof rosterEntrySchema>;
export type ExecutivesBody = z.infer<typeof executivesSchema>;

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
