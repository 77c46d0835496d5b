import { chooseTestInfra } from './test-infra';

const engine = () => Promise.resolve('unix:///var/run/docker.sock (Docker Desktop)');
const noEngine = () => Promise.resolve(undefined);
const FULL_ENV = { KAFKA_BROKERS: '127.0.0.1:9092', DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres' };

describe('chooseTestInfra', () => {
  it('takes the environment first, then a container engine, then the local script', async () => {
    expect((await chooseTestInfra(FULL_ENV, engine)).kind).toBe('environment');
    expect((await chooseTestInfra({}, engine)).kind).toBe('containers');
    expect((await chooseTestInfra({ DATABASE_URL: FULL_ENV.DATABASE_URL }, engine)).kind).toBe('containers');
    expect((await chooseTestInfra({}, noEngine)).kind).toBe('local');
  });

  it('lets TEST_INFRA force containers or local', async () => {
    expect((await chooseTestInfra({ ...FULL_ENV, TEST_INFRA: 'containers' }, engine)).kind).toBe('containers');
    expect((await chooseTestInfra({ TEST_INFRA: 'local' }, engine)).kind).toBe('local');
  });

  it('refuses TEST_INFRA=containers without an engine, and unknown values', async () => {
    await expect(chooseTestInfra({ TEST_INFRA: 'containers' }, noEngine)).rejects.toThrow(/no container engine answers/);
    await expect(chooseTestInfra({ TEST_INFRA: 'docker' }, engine)).rejects.toThrow(/"containers" or "local"/);
  });

  it('says why, naming the engine', async () => {
    expect((await chooseTestInfra({}, engine)).reason).toContain('unix:///var/run/docker.sock');
  });
});
