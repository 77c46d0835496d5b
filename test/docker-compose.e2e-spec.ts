// docker-compose.yml against the apps it runs: every entry point of apps/ has a service, and each
// service's environment, interpolated as compose interpolates it, passes that app's own config
// schema. No Docker here: this reads the file the way `docker compose config` resolves it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { databaseConfig } from '@app/config';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { ingestDecksConfigSchema } from '../apps/ingest-decks/src/ingest-decks.config';
import { ingestForm4ConfigSchema } from '../apps/ingest-form4/src/ingest-form4.config';
import { loadIngestIrConfig } from '../apps/ingest-ir/src/ingest-ir.config';
import { bulkConfigSchema } from '../apps/ingest-sec/src/bulk/bulk.config';
import { factsConfigSchema } from '../apps/ingest-sec/src/facts/facts.config';
import { parseFilingsConfig } from '../apps/ingest-sec/src/filings/filings.config';
import { ingestSecConfigSchema } from '../apps/ingest-sec/src/ingest-sec.config';
import { nportConfigSchema } from '../apps/ingest-sec/src/nport/nport.config';
import { eightkConfigSchema } from '../apps/ingest-sec/src/eightk/eightk.config';
import { thirteenfConfigSchema } from '../apps/ingest-sec/src/thirteenf/thirteenf.config';
import { sectionsConfigSchema } from '../apps/ingest-sec/src/sections/sections.config';
import { segmentsConfigSchema } from '../apps/ingest-sec/src/segments/segments.config';
import { projectorConfigSchema } from '../apps/projector/src/projector.config';
import { webhooksConfigSchema } from '../apps/webhooks/src/webhooks.config';

const ROOT = join(__dirname, '..');

interface Service {
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string | number>;
  profiles?: string[];
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };

/** What the operator provides (the shell or .env): the secrets and declared User-Agents, valid. */
const OPERATOR_ENV: Record<string, string> = {
  API_KEY_PEPPER: 'p'.repeat(40),
  CURSOR_SECRET: 'c'.repeat(40),
  WEBHOOK_SECRETS_KEY: 'ab'.repeat(32),
  EDGAR_USER_AGENT: 'Filings ops@filings.example',
  DECKS_USER_AGENT: 'Filings ops@filings.example',
  IR_USER_AGENT: 'Filings ops@filings.example',
};

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}; unset required variables are returned. */
function interpolate(value: string, env: Record<string, string>, missing: Set<string>): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?:(:?)([-?])([^}]*))?\}/g, (_, name: string, colon: string, op: string | undefined, arg: string) => {
    const v = env[name];
    const unset = v === undefined || (colon === ':' && v === '');
    if (op === '-') return unset ? arg : v;
    if (op === '?' && unset) {
      missing.add(name);
      return '';
    }
    return v ?? '';
  });
}

function serviceEnv(service: Service, env: Record<string, string>, missing = new Set<string>()): Record<string, string> {
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), env, missing)]));
}

/** The dist entry point a service runs (`dist/apps/api/src/main.js`), from its entrypoint + command. */
function entryOf(service: Service): string | undefined {
  return [...(service.entrypoint ?? []), ...(service.command ?? [])].find((a) => /^dist\/.*\.js$/.test(a));
}

const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

/** Each entry point's own validation of its environment: the problems it would refuse to start with. */
const CONFIG_CHECKS: Record<string, (env: Record<string, string>) => string[]> = {
  'dist/libs/persistence/src/migrate.cli.js': (env) => issues(databaseConfig.safeParse(env)),
  'dist/apps/api/src/main.js': (env) => issues(apiConfigSchema.safeParse(env)),
  'dist/apps/projector/src/main.js': (env) => issues(projectorConfigSchema.safeParse(env)),
  'dist/apps/webhooks/src/main.js': (env) => issues(webhooksConfigSchema.safeParse(env)),
  'dist/apps/ingest-sec/src/main.js': (env) => issues(ingestSecConfigSchema.safeParse(env)),
  'dist/apps/ingest-sec/src/filings.main.js': (env) => {
    try {
      parseFilingsConfig(env);
      return [];
    } catch (err) {
      return [String(err)];
    }
  },
  'dist/apps/ingest-sec/src/segments.main.js': (env) => issues(segmentsConfigSchema.safeParse(env)),
  'dist/apps/ingest-sec/src/sections.main.js': (env) => issues(sectionsConfigSchema.safeParse(env)),
  'dist/apps/ingest-sec/src/nport.main.js': (env) => issues(nportConfigSchema.safeParse(env)),
  'dist/apps/ingest-sec/src/eightk.main.js': (env) => issues(eightkConfigSchema.safeParse(env)),
  'dist/apps/ingest-sec/src/thirteenf.main.js': (env) => issues(thirteenfConfigSchema.safeParse(env)),
  'dist/apps/ingest-sec/src/bulk.main.js': (env) => issues(bulkConfigSchema.safeParse(env)),
  'dist/apps/ingest-sec/src/facts.main.js': (env) => issues(factsConfigSchema.safeParse(env)),
  'dist/apps/ingest-form4/src/main.js': (env) => issues(ingestForm4ConfigSchema.safeParse(env)),
  'dist/apps/ingest-decks/src/main.js': (env) => issues(ingestDecksConfigSchema.safeParse(env)),
  'dist/apps/ingest-ir/src/main.js': (env) => {
    try {
      loadIngestIrConfig(env, (path) => readFileSync(join(ROOT, path), 'utf8'));
      return [];
    } catch (err) {
      return [String(err)];
    }
  },
};

describe('docker-compose.yml', () => {
  it('runs every entry point of apps/ (and the migrations)', () => {
    const entries = readdirSync(join(ROOT, 'apps'))
      .filter((app) => app !== 'ops') // operator CLIs, run by hand
      .flatMap((app) => readdirSync(join(ROOT, 'apps', app, 'src')).filter((f) => /^(\w+\.)?main\.ts$/.test(f)).map((f) => `dist/apps/${app}/src/${f.replace(/\.ts$/, '.js')}`));
    expect(entries.length).toBeGreaterThanOrEqual(11);
    const served = Object.values(compose.services).map(entryOf).filter((e): e is string => e !== undefined);
    expect([...new Set(served)].sort()).toEqual([...entries, 'dist/libs/persistence/src/migrate.cli.js'].sort());
    expect(Object.keys(CONFIG_CHECKS).sort()).toEqual([...new Set(served)].sort());
  });

  it("gives every app service what its config schema requires, once the operator's secrets are set", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      const entry = entryOf(service);
      if (!entry) continue;
      const missing = new Set<string>();
      const env = serviceEnv(service, OPERATOR_ENV, missing);
      expect({ service: name, missing: [...missing] }).toEqual({ service: name, missing: [] });
      expect({ service: name, problems: CONFIG_CHECKS[entry]!(env) }).toEqual({ service: name, problems: [] });
      // Inside the compose network: no service reaches for the host's loopback.
      expect({ service: name, loopback: Object.values(env).filter((v) => /127\.0\.0\.1|localhost:(5432|9092|6379)/.test(v)) }).toEqual({ service: name, loopback: [] });
    }
  });

  it('names the secrets an operator must set, and gives the api and the dispatcher the same webhook key', () => {
    const missing = new Set<string>();
    for (const service of Object.values(compose.services)) serviceEnv(service, {}, missing);
    expect([...missing].sort()).toEqual(Object.keys(OPERATOR_ENV).sort());
    const api = compose.services.api!.environment!;
    expect(api.WEBHOOK_SECRETS_KEY).toBeDefined();
    expect(api.WEBHOOK_SECRETS_KEY).toBe(compose.services.webhooks!.environment!.WEBHOOK_SECRETS_KEY);
    expect(serviceEnv(compose.services.api!, OPERATOR_ENV).WEBHOOK_SECRETS_KEY).toBe(OPERATOR_ENV.WEBHOOK_SECRETS_KEY);
  });

  it('runs the long-lived apps by default and the one-shot ingestors on a profile', () => {
    const byDefault = Object.entries(compose.services)
      .filter(([, s]) => !s.profiles)
      .map(([n]) => n);
    expect(byDefault).toEqual(
      expect.arrayContaining(['migrate', 'projector', 'webhooks', 'api', 'ingest-sec-filings', 'ingest-sec-segments', 'ingest-sec-sections', 'ingest-sec-nport', 'ingest-sec-eightk', 'ingest-sec-13f', 'ingest-form4', 'ingest-ir', 'ingest-decks']),
    );
    for (const name of ['ingest-sec', 'ingest-sec-bulk']) expect(compose.services[name]!.profiles).toBeDefined();
    // `--profile live` adds the company load, once at start, to the long-lived set.
    expect(compose.services['live-companies']!.profiles).toEqual(['live']);
  });
});
