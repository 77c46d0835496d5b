import { parse } from 'yaml';

/**
 * The infrastructure services of docker-compose.yml (kafka, postgres, redis) as Testcontainers needs
 * them. docker-compose.yml is the one place that names their images and settings; the tests read it
 * so that containers started by a test run cannot drift from what `docker compose up` runs.
 */
export interface ComposeService {
  name: string;
  /** Image reference, `${VAR:-default}` resolved against the environment as compose does. */
  image: string;
  environment: Record<string, string>;
  /** The container port the compose file publishes (`"127.0.0.1:9092:9092"` -> 9092), its first one. */
  containerPort: number;
}

interface RawService {
  image?: unknown;
  environment?: unknown;
  ports?: unknown;
}

/** `${NAME}`, `${NAME:-default}` and `${NAME-default}` as compose interpolates them. */
function interpolate(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{(\w+)(?:(:?)-([^}]*))?\}/g, (_, name: string, colon: string, fallback: string | undefined) => {
    const set = env[name];
    if (fallback === undefined) return set ?? '';
    if (colon) return set ? set : fallback; // `:-` also replaces an empty value
    return set ?? fallback;
  });
}

function environmentOf(raw: unknown, env: NodeJS.ProcessEnv): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  // Compose allows both the mapping form and the list form (`- KEY=value`).
  const entries: [string, unknown][] = Array.isArray(raw)
    ? raw.map((line) => {
        const s = String(line);
        const eq = s.indexOf('=');
        return eq < 0 ? [s, env[s] ?? ''] : [s.slice(0, eq), s.slice(eq + 1)];
      })
    : Object.entries(raw as Record<string, unknown>);
  return Object.fromEntries(entries.map(([k, v]) => [k, interpolate(plainValue(k, v), env)]));
}

/** Compose environment values are scalars (`1`, `false`, text) or null (empty). */
function plainValue(key: string, v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new Error(`docker-compose.yml: environment ${key} is not a plain value`);
}

function containerPortOf(name: string, raw: unknown): number {
  const p: unknown = Array.isArray(raw) ? raw[0] : undefined;
  // Short syntax: [host_ip:][host_port:]container_port[/protocol]; long syntax: { target: n }.
  const target = typeof p === 'object' && p !== null ? (p as { target?: unknown }).target : String(p).split(':').pop();
  const port = Number(String(target).split('/')[0]);
  if (!Number.isInteger(port)) throw new Error(`docker-compose.yml: service "${name}" publishes no port`);
  return port;
}

/** Reads one service of a compose file's text. Throws when it is missing or has no image. */
export function composeService(composeYaml: string, name: string, env: NodeJS.ProcessEnv = process.env): ComposeService {
  const doc = parse(composeYaml, { merge: true }) as { services?: Record<string, RawService> } | null;
  const raw = doc?.services?.[name];
  if (!raw || typeof raw.image !== 'string') throw new Error(`docker-compose.yml: service "${name}" with an image not found`);
  return {
    name,
    image: interpolate(raw.image, env),
    environment: environmentOf(raw.environment, env),
    containerPort: containerPortOf(name, raw.ports),
  };
}

/**
 * The compose Kafka settings for a broker in a container of its own, reached from the host at
 * `host:hostPort`. Compose names the broker by its service name (the controller quorum and the
 * listener for other containers) and advertises the published port as-is; here the service name
 * does not resolve, so it becomes localhost, and the listener on the published port advertises the
 * host's address and mapped port. Every other setting stays as docker-compose.yml has it.
 */
export function kafkaEnvironmentForHost(service: ComposeService, host: string, hostPort: number): Record<string, string> {
  const env = { ...service.environment };
  const published = service.containerPort;
  const serviceHost = new RegExp(`(@|//)${service.name}:`, 'g');
  for (const key of ['KAFKA_CONTROLLER_QUORUM_VOTERS', 'KAFKA_ADVERTISED_LISTENERS']) {
    if (env[key] !== undefined) env[key] = env[key].replace(serviceHost, '$1localhost:');
  }
  const advertised = env.KAFKA_ADVERTISED_LISTENERS;
  if (!advertised) throw new Error('docker-compose.yml: the kafka service sets no KAFKA_ADVERTISED_LISTENERS');
  const onPublished = new RegExp(`^(\\w+)://[^,]*:${published}$`);
  const listeners = advertised.split(',').map((l) => l.trim().replace(onPublished, `$1://${host}:${hostPort}`));
  if (!listeners.some((l) => l.endsWith(`://${host}:${hostPort}`))) {
    throw new Error(`docker-compose.yml: no advertised Kafka listener on the published port ${published}`);
  }
  env.KAFKA_ADVERTISED_LISTENERS = listeners.join(',');
  return env;
}
