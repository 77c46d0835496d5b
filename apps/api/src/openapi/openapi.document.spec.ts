import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { EVENT_TYPES } from '@app/resources';
import { API_MODULES } from '../api.modules';
import { buildOpenApiDocument, renderOpenApiDocument } from './openapi.document';
import { RECORDED_EVENTS, RECORDED_REQUESTS } from './openapi.presentation';

type Json = Record<string, unknown>;
/** An operation as the walks below read it: its responses' schemas and recorded examples. */
interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema: Json; example?: unknown }> }>;
}

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
    expect(list.responses['422']).toEqual({ $ref: '#/components/responses/InvalidQuery' });
    expect((doc as unknown as { components: { responses: Record<string, Op['responses'][string]> } }).components.responses.InvalidQuery!.content['application/problem+json']!.schema.$ref).toBe(
      '#/components/schemas/ValidationError',
    );
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

  it('names every resource: each response is a $ref to a component, 422 to ValidationError and other errors to Problem', () => {
    type Response = { $ref?: string; content?: Record<string, { schema: Json }> };
    const doc = buildOpenApiDocument() as unknown as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, Response> }>>;
      components: { responses: Record<string, Response> };
    };
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, declared] of Object.entries(op.responses)) {
          const response = declared.$ref ? doc.components.responses[declared.$ref.split('/').pop()!]! : declared;
          for (const media of Object.values(response.content ?? {})) {
            const expected = status === '422' ? 'ValidationError' : status.startsWith('2') ? expect.stringMatching(/^[A-Z]\w+$/) : 'Problem';
            expect({ at: `${method} ${path} ${status}`, ref: String(media.schema.$ref).replace('#/components/schemas/', '') }).toEqual({ at: `${method} ${path} ${status}`, ref: expected });
          }
        }
      }
    }
    const schemas = (buildOpenApiDocument() as unknown as Doc).components.schemas;
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['Filing', 'Document', 'Transcript', 'Executive', 'InsiderTransaction', 'Event', 'ValidationError', 'Problem']));
    expect(schemas.Problem!.properties.detail).toMatchObject({ type: 'string' });
    expect(schemas.ValidationError!.properties.detail).toEqual({ type: 'array', items: { $ref: '#/components/schemas/ValidationItem' } });
    expect(schemas.FilingList!.properties.data).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Filing' } });
  });

  it('gives every path parameter and request body a recorded example, every recorded query parameter its value, and each webhook a payload', () => {
    const doc = buildOpenApiDocument() as unknown as {
      paths: Record<string, Record<string, { operationId: string; parameters: { name: string; in: string; example?: unknown }[]; requestBody?: { content: Record<string, { example?: unknown }> } }>>;
      webhooks: Record<string, { post: { requestBody: { content: Record<string, { example?: { type: string } }> } } }>;
    };
    const missing: string[] = [];
    let pathParameters = 0;
    let bodies = 0;
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        const sent = RECORDED_REQUESTS[op.operationId];
        for (const p of op.parameters) {
          if (p.in === 'path') pathParameters += 1;
          if ((p.in === 'path' || sent?.query[p.name]) && p.example === undefined) missing.push(`${op.operationId} ${p.in} ${p.name}`);
        }
        if (op.requestBody) {
          bodies += 1;
          if (op.requestBody.content['application/json']!.example === undefined) missing.push(`${op.operationId} body`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(pathParameters).toBeGreaterThanOrEqual(23);
    expect(bodies).toBeGreaterThanOrEqual(5);
    const listCompanies = doc.paths['/v1/companies']!.get!.parameters;
    expect(listCompanies.find((p) => p.name === 'tickers')!.example).toEqual(['MSFT', 'AAPL']);
    expect(listCompanies.find((p) => p.name === 'active_only')!.example).toBe(true);
    expect(listCompanies.find((p) => p.name === 'limit')!.example).toBe(2);
    expect(doc.paths['/v1/companies/{symbol}']!.get!.parameters.find((p) => p.name === 'symbol')!.example).toBe('MSFT:US');
    for (const type of EVENT_TYPES) expect(doc.webhooks[type]!.post.requestBody.content['application/json']!.example?.type).toBe(type);
    // Every event type but the ping (sent only by the test route) is a real event of the fixture run.
    expect(Object.keys(RECORDED_EVENTS).sort()).toEqual(EVENT_TYPES.filter((t) => t !== 'webhook.test').sort());
  });

  it('declares on every operation the errors it can answer, the shared ones as $refs to components.responses', () => {
    const doc = buildOpenApiDocument() as unknown as {
      paths: Record<string, Record<string, { operationId: string; security?: unknown[]; requestBody?: unknown; responses: Record<string, { $ref?: string }> }>>;
      components: { responses: Record<string, { content: Record<string, { example?: unknown }> }> };
    };
    const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const r = op.responses;
        const keyed = op.security === undefined;
        const at = `${method} ${path}`;
        expect([at, r['500']]).toEqual([at, ref('InternalError')]);
        expect([at, r['422']]).toEqual([at, ref(method === 'get' ? 'InvalidQuery' : op.requestBody ? 'InvalidBody' : 'UnexpectedBody')]);
        if (keyed) {
          expect([at, r['400'], r['401'], r['429']]).toEqual([at, ref('BadRequest'), ref('Unauthorized'), ref('RateLimited')]);
          expect([at, r['503'] !== undefined]).toEqual([at, true]);
        } else expect([at, r['401'], r['429'], r['400']]).toEqual([at, undefined, undefined, undefined]);
        if (method !== 'get') expect([at, r['413'], r['415']]).toEqual([at, ref('PayloadTooLarge'), ref('UnsupportedMediaType')]);
      }
    }
    // Each shared response is used and carries an example recorded from the api.
    for (const [name, response] of Object.entries(doc.components.responses)) {
      expect([name, Object.values(response.content)[0]!.example !== undefined]).toEqual([name, true]);
      expect([name, JSON.stringify(doc.paths).includes(`"#/components/responses/${name}"`)]).toEqual([name, true]);
    }
  });

  it('has a webhook per event type, its body the envelope with typed data, and /v1/events items the union by type', () => {
    const doc = buildOpenApiDocument() as unknown as Doc & { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Json }> } } }> };
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    const body = doc.webhooks['filing.created']!.post.requestBody.content['application/json']!.schema;
    expect(body).toEqual({ $ref: '#/components/schemas/FilingCreatedWebhook' });
    expect(doc.components.schemas.FilingCreatedWebhook!.properties).toMatchObject({ type: { const: 'filing.created' }, data: { $ref: '#/components/schemas/Filing' } });
    const event = doc.components.schemas.Event as unknown as { oneOf: Json[]; discriminator: { propertyName: string; mapping: Record<string, string> } };
    expect(event.oneOf).toHaveLength(EVENT_TYPES.length);
    expect(event.discriminator.propertyName).toBe('type');
    expect(event.discriminator.mapping['transcript.published']).toBe('#/components/schemas/TranscriptPublishedEvent');
    expect(doc.components.schemas.EventList!.properties.data).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Event' } });
  });

  it('gives every date and time a format: recorded values that look like one sit under format date or date-time, and formatted values match it', () => {
    const doc = buildOpenApiDocument() as unknown as { paths: Record<string, Record<string, Operation>>; components: Doc['components'] };
    const DAY = /^\d{4}-\d{2}-\d{2}$/;
    const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
    const resolve = (s: Json): Json => (typeof s.$ref === 'string' ? resolve(doc.components.schemas[s.$ref.split('/').pop()!] as unknown as Json) : s);
    /** The schemas a value may match: the schema itself, or its anyOf/oneOf branches, resolved. */
    const branches = (s: Json): Json[] => {
      const r = resolve(s);
      const alternatives = (r.anyOf ?? r.oneOf) as Json[] | undefined;
      return alternatives ? alternatives.flatMap(branches) : [r];
    };
    const wrong: string[] = [];
    let dated = 0;
    const walk = (schema: Json, value: unknown, at: string): void => {
      const options = branches(schema);
      if (typeof value === 'string') {
        const formats = options.map((o) => o.format).filter((f) => f === 'date' || f === 'date-time');
        const looks = DAY.test(value) ? 'date' : INSTANT.test(value) ? 'date-time' : null;
        if (looks && !formats.includes(looks)) wrong.push(`${at}: ${value} has no format ${looks}`);
        if (!looks && formats.length) wrong.push(`${at}: ${value} is not a ${formats.join(' or ')}`);
        if (looks) dated += 1;
        return;
      }
      if (Array.isArray(value)) {
        const items = options.find((o) => o.type === 'array')?.items as Json | undefined;
        value.forEach((v, i) => items && walk(items, v, `${at}[${i}]`));
      } else if (value !== null && typeof value === 'object') {
        // A union (an event): the branch whose const type the value has, else the only object.
        const objects = options.filter((o) => o.properties);
        const typed = objects.find((o) => (o.properties as Record<string, Json>).type?.const === (value as Json).type) ?? objects[0];
        for (const [k, v] of Object.entries(value)) {
          const props = (typed?.properties ?? {}) as Record<string, Json>;
          const sub = props[k] ?? (typeof typed?.additionalProperties === 'object' ? (typed.additionalProperties as Json) : undefined);
          if (sub) walk(sub, v, `${at}.${k}`);
        }
      }
    };
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          for (const media of Object.values(response.content ?? {})) if (media.example !== undefined) walk(media.schema, media.example, `${op.operationId} ${status}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(dated).toBeGreaterThan(100);
    // A field named like a time or a day and not in an example (null there, or deep): by its name.
    const unformatted: string[] = [];
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      const visit = (s: Json, at: string): void => {
        for (const [prop, sub] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
          const options = branches(sub);
          const strings = options.filter((o) => o.type === 'string' && !o.enum && o.const === undefined);
          if (/(_at|_date|^date|_since|^since|timestamp|^as_of|period|_to|^from|^to)$/.test(prop) && strings.length && !strings.some((o) => o.format)) unformatted.push(`${at}.${prop}`);
          for (const o of options) {
            if (!o.$ref && o.properties) visit(o, `${at}.${prop}`);
            if (o.type === 'array' && (o.items as Json | undefined)?.properties) visit(o.items as Json, `${at}.${prop}[]`);
          }
        }
      };
      visit(schema, name);
    }
    expect(unformatted).toEqual([]);
  });

  it('matches the committed apps/api/openapi.json (run the openapi CLI to update it)', () => {
    expect(readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8')).toBe(renderOpenApiDocument());
  });
});
