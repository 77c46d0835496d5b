import { z } from 'zod';
import { ROSTER_CATEGORIES } from '@app/contracts';
import { companyReferenceSchema, provenanceSchema } from '@app/resources';
import { params } from '../platform/query.validation';

/** Query parameters of GET /v1/companies/{symbol}/executives. */
export const executivesParams = params({
  category: {
    kind: 'enum',
    values: ROSTER_CATEGORIES,
    default: 'executives',
    description: 'executives (officers), ir (investor relations contacts) or analysts (research analysts covering the company)',
  },
  current_only: { kind: 'bool', default: true, description: 'Only current people (see is_current); false adds those who are no longer listed or filed as insiders' },
  limit: { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Entries to return, 1 to 500 (free plan and sk_test_ keys: at most 25)' },
});

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
});

export type RosterEntryBody = z.infer<typeof rosterEntrySchema>;
export type ExecutivesBody = z.infer<typeof executivesSchema>;
