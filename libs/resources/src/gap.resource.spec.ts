import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import * as resources from './index';
import { GAP_CATALOGUE, GAP_CODES, gapSchema, type GapBody } from './gap.resource';

/** Every object schema reachable from `schema`, with the path that leads to it. */
function objectsIn(schema: z.ZodType, path: string, seen = new Set<z.ZodType>()): Array<{ path: string; object: z.ZodObject }> {
  if (seen.has(schema)) return [];
  seen.add(schema);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return objectsIn(schema.unwrap() as z.ZodType, path, seen);
  if (schema instanceof z.ZodArray) return objectsIn(schema.element as z.ZodType, `${path}[]`, seen);
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap((o) => objectsIn(o, path, seen));
  if (!(schema instanceof z.ZodObject)) return [];
  return [{ path, object: schema }, ...Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, s]) => objectsIn(s, `${path}.${key}`, seen))];
}

/** The schema under optional and nullable wrappers. */
const unwrapped = (s: z.ZodType): z.ZodType => (s instanceof z.ZodOptional || s instanceof z.ZodNullable ? unwrapped(s.unwrap() as z.ZodType) : s);

const exportedSchemas = Object.entries(resources as Record<string, unknown>).filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType);

/** A gap as every resource must answer it: a catalogued code, a detail, a field only when named. */
function expectWellFormed(gaps: readonly GapBody[]): void {
  expect(gaps.length).toBeGreaterThan(0);
  for (const g of gaps) {
    expect(gapSchema.strict().parse(g)).toEqual(g);
    expect(GAP_CODES).toContain(g.code);
    expect(g.detail.length).toBeGreaterThan(0);
    if ('field' in g) expect(g.field).toMatch(/^[a-z_]+$/);
  }
}

describe('one gaps form', () => {
  it('every resource schema carries gaps as an array of the one Gap schema, and none has _gaps', () => {
    const withGaps: string[] = [];
    for (const [name, schema] of exportedSchemas) {
      for (const { path, object } of objectsIn(schema, name)) {
        const shape = object.shape as Record<string, z.ZodType>;
        expect(Object.keys(shape)).not.toContain('_gaps');
        if (!shape.gaps) continue;
        const gaps = unwrapped(shape.gaps);
        expect(gaps).toBeInstanceOf(z.ZodArray);
        expect((gaps as z.ZodArray).element).toBe(gapSchema);
        withGaps.push(path);
      }
    }
    // The resources known to answer gaps: a new one joins this list by using gapSchema.
    for (const name of ['companyDetailSchema', 'coverageSchema', 'factListSchema', 'financialStatementSchema', 'segmentsResponseSchema', 'fundExposureSchema', 'companyHoldersSchema', 'securityHoldersSchema', 'institutionHoldingsSchema', 'executivesSchema']) {
      expect(withGaps).toContain(name);
    }
  });

  it('the pure producers answer catalogued codes with a detail', () => {
    const concept = { concept: 'us-gaap:Revenues', label: 'Revenues', description: null, units: ['USD'], values: 1, reports: 1, dimensioned: true, firstPeriodEnd: '2020-12-31', lastPeriodEnd: '2024-12-31' };
    expectWellFormed(resources.factGaps(concept, false));
    expect(resources.factGaps(concept, false).map((g) => g.code)).toEqual(['source_scope', 'dimensioned_values_available']);
    expectWellFormed(resources.segmentGaps({ total: 0, annualForms: 0, derivedQ4: 0 }));
    expect(resources.segmentGaps({ total: 0, annualForms: 0, derivedQ4: 0 }).map((g) => g.code)).toEqual(['no_segments_reported', 'no_annual_segments', 'derived_q4', 'source_scope']);
    expectWellFormed(resources.FUND_EXPOSURE_GAPS);
    expectWellFormed(resources.fundExposureAsOfGaps('2024-01-02', { funds: 3, replaced: 1, undated: 1 }));
    expectWellFormed(resources.INSTITUTIONAL_GAPS);
    expectWellFormed(resources.institutionalAsOfGaps('2024-01-02'));
  });

  it('docs/gaps.md catalogues exactly the codes of GAP_CATALOGUE', () => {
    const page = readFileSync(join(__dirname, '../../../docs/gaps.md'), 'utf8');
    const documented = [...page.matchAll(/^\| `([a-z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual(Object.keys(GAP_CATALOGUE));
  });
});
