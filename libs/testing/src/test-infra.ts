import { readFileSync } from 'node:fs';
import { freePort } from './free-port';
import { Client } from 'pg';
import { GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';
import { composeService, kafkaEnvironmentForHost, type ComposeService } from './compose-services';

/**
 * Where integration and end-to-end tests get Kafka, Postgres and Redis, in this order:
 *  - environment: KAFKA_BROKERS and DATABASE_URL are set (REDIS_URL too, or the tests' default);
 *  - containers: a container engine answers (DOCKER_HOST, or the default socket), so Testcontainers
 *    starts the images docker-compose.yml names, with its settings, on random host ports;
 *  - local: the project's Kafka script and the machine's or an embedded Postgres (scripts/infra.sh).
 * TEST_INFRA=containers|local forces one.
 */
export type TestInfraKind = 'environment' | 'containers' | 'local';

export interface TestInfraChoice {
  kind: TestInfraKind;
  /** One line saying why, for the suite's output. */
  reason: string;
}

/** Where a container engine answers (`unix:///...`, `tcp://...`), or undefined when none does. */
export type EngineProbe = () => Promise<string | undefined>;

/** The engine Testcontainers itself would use: its own strategies (DOCKER_HOST, ~/.testcontainers.properties, sockets). */
export const probeContainerEngine: EngineProbe = async () => {
  try {
    const client = await getContainerRuntimeClient();
    return `${process.env.DOCKER_HOST ?? 'the default socket'} (${client.info.containerRuntime.operatingSystem})`;
  } catch {
    return undefined;
  }
};

export async function chooseTestInfra(env: NodeJS.ProcessEnv, probe: EngineProbe = probeContainerEngine): Promise<TestInfraChoice> {
  const forced = env.TEST_INFRA?.trim();
  if (forced === 'containers') {
    const engine = await probe();
    if (!engine) {
      throw new Error('TEST_INFRA=containers but no container engine answers (set DOCKER_HOST, or start Docker; on these machines: eval "$(../shared/containers/setup.sh)")');
    }
    return { kind: 'containers', reason: `TEST_INFRA=containers, engine at ${engine}` };
  }
  if (forced === 'local') return { kind: 'local', reason: 'TEST_INFRA=local' };
  if (forced) throw new Error(`TEST_INFRA must be "containers" or "local", not "${forced}"`);
  if (env.KAFKA_BROKERS && env.DATABASE_URL) return { kind: 'environment', reason: 'KAFKA_BROKERS and DATABASE_URL are set' };
  const engine = await probe();
  if (engine) return { kind: 'containers', reason: `a container engine answers at ${engine}` };
  return { kind: 'local', reason: 'no KAFKA_BROKERS/DATABASE_URL and no container engine answers' };
}

export interface TestContainers {
  /** KAFKA_BROKERS, DATABASE_URL and REDIS_URL pointing at the containers. */
  env: { KAFKA_BROKERS: string; DATABASE_URL: string; REDIS_URL: string };
  /** One line per container: service, image, address. */
  describe(): string[];
  /** Stops and removes every container this call started. */
  stop(): Promise<void>;
}

/** Postgres opens its port a moment before it accepts sessions; wait for a real query. */
async function waitForPostgres(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((resolve) => setTimeout(resolve, 250));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

const LABELS = { 'filings.test-infra': 'true' };

function containerOf(service: ComposeService, env: Record<string, string>): GenericContainer {
  return new GenericContainer(service.image).withEnvironment(env).withLabels(LABELS).withStartupTimeout(180_000);
}

async function startKafka(service: ComposeService, host: string): Promise<StartedTestContainer> {
  // Kafka must advertise its host port, so that port is chosen up front.
  const hostPort = await freePort();
  return containerOf(service, kafkaEnvironmentForHost(service, host, hostPort))
    .withExposedPorts({ container: service.containerPort, host: hostPort })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .start();
}

async function startPostgres(service: ComposeService): Promise<StartedTestContainer> {
  return containerOf(service, service.environment)
    .withExposedPorts(service.containerPort)
    .withWaitStrategy(Wait.forListeningPorts())
    .start();
}

function postgresUrl(service: ComposeService, container: StartedTestContainer): string {
  const e = service.environment;
  const user = e.POSTGRES_USER || 'postgres';
  const url = new URL(`postgres://${container.getHost()}:${container.getMappedPort(service.containerPort)}`);
  url.username = user;
  if (e.POSTGRES_PASSWORD) url.password = e.POSTGRES_PASSWORD;
  url.pathname = `/${e.POSTGRES_DB || user}`;
  return url.toString();
}

async function startRedis(service: ComposeService): Promise<StartedTestContainer> {
  return containerOf(service, service.environment)
    .withExposedPorts(service.containerPort)
    .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
    .start();
}

/**
 * Starts kafka, postgres and redis as docker-compose.yml describes them (read from `composeFile`),
 * each on random host ports so they never meet a broker or database the machine already runs.
 * When one fails to start, the others are stopped before the error is thrown.
 */
export async function startTestContainers(composeFile: string): Promise<TestContainers> {
  const compose = readFileSync(composeFile, 'utf8');
  const kafka = composeService(compose, 'kafka');
  const postgres = composeService(compose, 'postgres');
  const redis = composeService(compose, 'redis');
  const host = (await getContainerRuntimeClient()).info.containerRuntime.host;

  const [k, p, r] = await Promise.allSettled([startKafka(kafka, host), startPostgres(postgres), startRedis(redis)]);
  const stop = async () => {
    const running = [k, p, r].flatMap((c) => (c.status === 'fulfilled' ? [c.value] : []));
    await Promise.allSettled(running.map((c) => c.stop({ timeout: 5_000 })));
  };
  if (k.status === 'rejected' || p.status === 'rejected' || r.status === 'rejected') {
    await stop();
    const reason: unknown = [k, p, r].find((c): c is PromiseRejectedResult => c.status === 'rejected')?.reason;
    throw reason instanceof Error ? reason : new Error(`a test container did not start: ${String(reason)}`);
  }
  const [kafkaC, postgresC, redisC] = [k.value, p.value, r.value];
  const env = {
    KAFKA_BROKERS: `${host}:${kafkaC.getMappedPort(kafka.containerPort)}`,
    DATABASE_URL: postgresUrl(postgres, postgresC),
    REDIS_URL: `redis://${redisC.getHost()}:${redisC.getMappedPort(redis.containerPort)}`,
  };
  try {
    await waitForPostgres(env.DATABASE_URL);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    env,
    describe: () => [
      `kafka: ${kafka.image} container ${kafkaC.getId().slice(0, 12)} at ${env.KAFKA_BROKERS}`,
      `postgres: ${postgres.image} container ${postgresC.getId().slice(0, 12)} at ${postgresC.getHost()}:${postgresC.getMappedPort(postgres.containerPort)}`,
      `redis: ${redis.image} container ${redisC.getId().slice(0, 12)} at ${env.REDIS_URL}`,
    ],
    stop,
  };
}
