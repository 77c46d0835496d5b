import { z } from 'zod';
import { ROSTER_CATEGORIES } from '@app/contracts';
import { companyReferenceSchema, provenanceSchema } from '../companies/companies.schemas';
import type { ParamSpecs } from '../platform/query.validation';

/** Query parameters of GET /v1/companies/{symbol}/executives. */
export const executivesParams: ParamSpecs = {
  category: {
    kind: 'enum',
    values: ROSTER_CATEGORIES,
    default: 'executives',
    description: 'executives (officers), ir (investor relations contacts) or analysts (research analysts covering the company)',
  },
  current_only: { kind: 'bool', default: true, description: 'Only people the latest source still lists; false adds those who are no longer listed (is_current false)' },
  limit: { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Entries to return, 1 to 500 (free plan and sk_test_ keys: at most 25)' },
};

export const rosterEntrySchema = z.object({
  name: z.string().describe('Person as printed by the source'),
  role: z.string().describe('Role as printed ("Chief Executive Officer", "Investor Relations"; "Analyst" for analysts)'),
  category: z.enum(ROSTER_CATEGORIES),
  affiliation: z.string().describe('The company, its IR agency, or the analyst\'s research firm'),
  rank: z.number().int().describe('1-based: seniority for executives, page order for IR contacts and analysts'),
  is_current: z.boolean().describe('The latest roster of the source still lists the person'),
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
