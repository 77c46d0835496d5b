import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument, renderOpenApiDocument } from './openapi.document';

interface Op {
  parameters: { name: string; schema: unknown }[];
  responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }>;
  security?: unknown[];
}
interface Doc {
  openapi: string;
  paths: Record<string, { get: Op }>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, { properties: Record<string, unknown> }> };
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with bearer security, the company routes and problem responses', () => {
    const doc = buildOpenApiDocument() as unknown as Doc;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const list = doc.paths['/v1/companies']!.get;
    expect(list.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['q', 'tickers', 'limit', 'cursor', 'direction', 'active_only', 'sector']));
    expect(list.parameters.find((p) => p.name === 'limit')!.schema).toEqual({ type: 'integer', minimum: 1, maximum: 500, default: 50 });
    expect(list.responses['422']!.content['application/problem+json']!.schema.$ref).toBe('#/components/schemas/ValidationProblem');
    expect(doc.paths['/v1/companies/{symbol}']!.get.responses['404']).toBeDefined();
    expect(doc.components.schemas.CompanyDetail!.properties.provenance).toEqual({ $ref: '#/components/schemas/Provenance' });
    expect(doc.paths['/healthz']!.get.security).toEqual([]);
  });

  it('matches the committed apps/api/openapi.json (run the openapi CLI to update it)', () => {
    expect(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8')).toBe(renderOpenApiDocument());
  });
});
