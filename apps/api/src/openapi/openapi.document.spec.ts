import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { API_MODULES } from '../api.modules';
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

  it('every request body is strict at every level (an unknown field is a 422), and every route taking one declares 415 and 422', () => {
    const objects = (node: unknown, at: string, out: string[]): string[] => {
      if (Array.isArray(node)) node.forEach((n, i) => objects(n, `${at}/${i}`, out));
      else if (node !== null && typeof node === 'object') {
        const o = node as Record<string, unknown>;
        if (o.type === 'object' && o.additionalProperties !== false) out.push(at);
        for (const [k, v] of Object.entries(o)) objects(v, `${at}/${k}`, out);
      }
      return out;
    };
    const routes = API_MODULES.flatMap((m) => Object.values(m.routes));
    const withBody = routes.filter((r) => r.body !== undefined);
    expect(withBody.length).toBeGreaterThanOrEqual(5);
    for (const r of withBody) expect([r.operationId, objects(z.toJSONSchema(r.body!, { io: 'input' }), '', [])]).toEqual([r.operationId, []]);
    const doc = buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, Op & { operationId: string }>> };
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const statuses = Object.keys(op.responses);
        expect([method, path, statuses.includes('422'), statuses.includes('415')]).toEqual([method, path, true, method !== 'get']);
      }
    }
  });

  it('matches the committed apps/api/openapi.json (run the openapi CLI to update it)', () => {
    expect(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8')).toBe(renderOpenApiDocument());
  });
});
