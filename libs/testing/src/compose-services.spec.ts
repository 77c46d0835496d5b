import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeService, kafkaEnvironmentForHost } from './compose-services';

// The project's own docker-compose.yml: the test containers take their images and settings from it.
const COMPOSE = readFileSync(join(__dirname, '..', '..', '..', 'docker-compose.yml'), 'utf8');

describe('composeService', () => {
  it('reads the image, environment and published port of the infrastructure services', () => {
    const kafka = composeService(COMPOSE, 'kafka', {});
    expect(kafka.image).toMatch(/^apache\/kafka:\d+\.\d+\.\d+$/);
    expect(kafka.containerPort).toBe(9092);
    expect(kafka.environment.KAFKA_AUTO_CREATE_TOPICS_ENABLE).toBe('false');
    expect(kafka.environment.KAFKA_NODE_ID).toBe('1');

    const postgres = composeService(COMPOSE, 'postgres', {});
    expect(postgres.image).toMatch(/^postgres:\d+/);
    expect(postgres.containerPort).toBe(5432);
    expect(postgres.environment).toMatchObject({ POSTGRES_DB: 'filings', POSTGRES_HOST_AUTH_METHOD: 'trust' });

    const redis = composeService(COMPOSE, 'redis', {});
    expect(redis.image).toMatch(/^redis:\d+/);
    expect(redis.containerPort).toBe(6379);
  });

  it('interpolates ${VAR:-default} as compose does, in images and environment', () => {
    const yaml = [
      'services:',
      '  db:',
      '    image: ${DB_IMAGE:-postgres:17}',
      '    ports: ["127.0.0.1:5432:5432/tcp"]',
      '    environment:',
      '      - POSTGRES_DB=${DB_NAME-filings}',
    ].join('\n');
    expect(composeService(yaml, 'db', {})).toEqual({ name: 'db', image: 'postgres:17', environment: { POSTGRES_DB: 'filings' }, containerPort: 5432 });
    expect(composeService(yaml, 'db', { DB_IMAGE: 'postgres:18', DB_NAME: '' }).image).toBe('postgres:18');
    expect(composeService(yaml, 'db', { DB_IMAGE: '', DB_NAME: '' })).toMatchObject({ image: 'postgres:17', environment: { POSTGRES_DB: '' } });
  });

  it('fails on a missing service or one that publishes no port', () => {
    expect(() => composeService(COMPOSE, 'zookeeper', {})).toThrow(/service "zookeeper"/);
    expect(() => composeService('services:\n  x:\n    image: redis:7\n', 'x', {})).toThrow(/publishes no port/);
  });
});

describe('kafkaEnvironmentForHost', () => {
  it('points the listener on the published port at the host port and the service name at localhost', () => {
    const yaml = [
      'services:',
      '  kafka:',
      '    image: apache/kafka:4.3.1',
      '    ports: ["127.0.0.1:9092:9092"]',
      '    environment:',
      '      KAFKA_CONTROLLER_QUORUM_VOTERS: 1@kafka:9093',
      '      KAFKA_ADVERTISED_LISTENERS: HOST://127.0.0.1:9092,INTERNAL://kafka:19092',
      '      KAFKA_NUM_PARTITIONS: 1',
    ].join('\n');
    expect(kafkaEnvironmentForHost(composeService(yaml, 'kafka', {}), '127.0.0.1', 40123)).toEqual({
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_ADVERTISED_LISTENERS: 'HOST://127.0.0.1:40123,INTERNAL://localhost:19092',
      KAFKA_NUM_PARTITIONS: '1',
    });
  });

  it('keeps every other setting of the project\'s kafka service', () => {
    const kafka = composeService(COMPOSE, 'kafka', {});
    const env = kafkaEnvironmentForHost(kafka, '127.0.0.1', 40123);
    expect(env.KAFKA_ADVERTISED_LISTENERS).toContain('://127.0.0.1:40123');
    expect(`${env.KAFKA_ADVERTISED_LISTENERS},${env.KAFKA_CONTROLLER_QUORUM_VOTERS}`).not.toMatch(/kafka:|:9092\b/);
    const changed = Object.keys(env).filter((k) => env[k] !== kafka.environment[k]);
    expect(changed.sort()).toEqual(['KAFKA_ADVERTISED_LISTENERS', 'KAFKA_CONTROLLER_QUORUM_VOTERS']);
  });

  it('fails when no advertised listener is on the published port', () => {
    const yaml = 'services:\n  kafka:\n    image: k\n    ports: ["9094:9094"]\n    environment:\n      KAFKA_ADVERTISED_LISTENERS: PLAINTEXT://127.0.0.1:9092\n';
    expect(() => kafkaEnvironmentForHost(composeService(yaml, 'kafka', {}), '127.0.0.1', 1)).toThrow(/published port 9094/);
  });
});
