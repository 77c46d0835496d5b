// What a client generator makes of the served document: openapi-typescript turns /v1/openapi.json
// into types, and a consumer's program using the named resources, a webhook payload, the event
// union narrowed by `type` and an openapi-fetch client compiles under --strict with no cast. A
// program misusing the same types must not compile, or the check proves nothing.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import ts from 'typescript';
import { createLogger } from '@app/observability';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { ApiContext } from '../api.context';
import { buildApiServer } from '../api.server';
import { apiConfigSchema } from '../config/api.config';

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');

/** openapiTS + astToString: the document file (argv[1]) to its types (argv[2]). */
const GENERATE = `
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
const [input, output] = process.argv.slice(1);
writeFileSync(output, astToString(await openapiTS(JSON.parse(readFileSync(input, 'utf8')))));
`;

let db: TestDatabase;
let api: { server: FastifyInstance; context: ApiContext };
let dir: string;

beforeAll(async () => {
  db = await createTestDatabase('openapi_client');
  api = await buildApiServer(
    apiConfigSchema.parse({
      DATABASE_URL: db.url,
      API_KEY_PEPPER: randomBytes(24).toString('hex'),
      CURSOR_SECRET: randomBytes(24).toString('hex'),
      PUBLIC_BASE_URL: 'https://api.filings.test',
      LOG_LEVEL: 'silent',
    }),
    { logger: createLogger({ level: 'silent' }) },
  );
  const url = await api.server.listen({ port: 0, host: '127.0.0.1' });
  const served = await fetch(`${url}/v1/openapi.json`);
  expect(served.status).toBe(200);
  dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
  writeFileSync(join(dir, 'openapi.json'), await served.text());
  // openapi-typescript's Node API, in a node of its own: it loads ES modules jest's CommonJS runtime cannot.
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', GENERATE, join(dir, 'openapi.json'), join(dir, 'api.ts')], { cwd: REPO_ROOT });
}, 60_000);

afterAll(async () => {
  await api?.server.close();
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A consumer's program over the generated types: every named type, a webhook, the events union, a typed client. */
const CONSUMER = `
import createClient from 'openapi-fetch';
import type { components, paths, webhooks } from './api';

type Filing = components['schemas']['Filing'];
type IrDocument = components['schemas']['Document'];
type Transcript = components['schemas']['Transcript'];
type Event = components['schemas']['Event'];
type FilingCreated = webhooks['filing.created']['post']['requestBody']['content']['application/json'];
type Invalid = components['schemas']['ValidationError'];

export const filingLine = (f: Filing): string => \`\${f.accession} \${f.form} \${f.filed_date} \${f.accepted_at ?? 'not accepted'}\`;
export const documentLine = (d: IrDocument): string => \`\${d.title} \${d.published_at} (\${d.published_at_source})\`;
export const transcriptLine = (t: Transcript): string => \`\${t.call.date}: \${t.turn_count} turns\`;

/** A webhook receiver's handler: the body is typed, data is the Filing. */
export function onFilingCreated(body: FilingCreated): string {
  const filing: Filing = body.data;
  return \`\${body.type} at \${body.timestamp}\${body.test ? ' (test)' : ''}: \${filingLine(filing)}\`;
}

/** A feed item: narrowing on type gives data its resource type. */
export function describe(event: Event): string {
  switch (event.type) {
    case 'filing.created':
      return filingLine(event.data);
    case 'ir_document.created':
      return documentLine(event.data);
    case 'transcript.published':
      return \`\${transcriptLine(event.data)}, \${event.data.participants.length} participants\`;
    case 'form4.filed':
      return event.data.transactions.map((t) => \`\${t.transaction_date ?? 'holding'} \${t.shares ?? 0}\`).join(', ');
    case '13f.filed':
      return \`\${event.data.manager.cik} \${event.data.period}\`;
    case 'webhook.test':
      return event.data.message;
  }
}

const client = createClient<paths>({ baseUrl: 'https://api.filings.test', headers: { authorization: 'Bearer sk_test_x' } });

export async function newestFilings(): Promise<string[]> {
  const { data, error } = await client.GET('/v1/filings', { params: { query: { limit: 5 } } });
  if (error) return [error.title];
  return data.data.map(filingLine);
}

export async function oneDocument(id: number): Promise<string> {
  const { data } = await client.GET('/v1/documents/{doc_id}', { params: { path: { doc_id: id } } });
  return data ? documentLine(data) : 'none';
}

export async function feed(): Promise<string[]> {
  const { data } = await client.GET('/v1/events', { params: { query: {} } });
  return (data?.data ?? []).map(describe);
}

export const invalidAt = (problem: Invalid): string[] => problem.detail.map((item) => item.loc.join('.'));
`;

/** The same types misused: each line must be a compile error. */
const MISUSE = `
import type { components, webhooks } from './api';
import createClient from 'openapi-fetch';
import type { paths } from './api';

type Event = components['schemas']['Event'];
type FilingCreated = webhooks['filing.created']['post']['requestBody']['content']['application/json'];

export const wrongData = (body: FilingCreated): string => body.data.title;
export const unnarrowed = (event: Event): string => event.data.accession;
export const narrowedWrong = (event: Event): string => (event.type === 'webhook.test' ? event.data.accession : '');
export const problemDetail = (p: components['schemas']['Problem']): number => p.detail.length + p.detail[0].loc.length;
const client = createClient<paths>({ baseUrl: 'https://api.filings.test' });
export const badQuery = () => client.GET('/v1/filings', { params: { query: { limit: 'five' } } });
`;

/** Compiles one program beside the generated api.ts under --strict: its diagnostics as text. */
function compile(name: string, source: string): string[] {
  const file = join(dir, name);
  writeFileSync(file, source);
  const openapiFetch = dirname(require.resolve('openapi-fetch/package.json'));
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
    // The temporary directory has no node_modules: point the import at the installed package.
    paths: { 'openapi-fetch': [join(openapiFetch, 'dist', 'index.d.mts')] },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1} ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('a client generated from the served OpenAPI document', () => {
  it('types Filing, Document, Transcript, a webhook payload, the events union and an openapi-fetch client: a --strict program compiles with no cast', () => {
    expect(CONSUMER).not.toMatch(/\bas\s+[A-Za-z{[]/);
    expect(CONSUMER).not.toMatch(/\bany\b|unknown|@ts-/);
    expect(compile('consumer.ts', CONSUMER)).toEqual([]);
  }, 60_000);

  it('refuses a program that misuses them: wrong data, an event not narrowed, a problem detail taken for validation items, a wrong query type', () => {
    const errors = compile('misuse.ts', MISUSE);
    const lines = new Set(errors.map((e) => Number(/^misuse\.ts:(\d+) /.exec(e)?.[1])));
    // One error (at least) on each of the five misusing lines, and none elsewhere.
    expect([...lines].sort((a, b) => a - b)).toEqual([9, 10, 11, 12, 14]);
  }, 60_000);
});
