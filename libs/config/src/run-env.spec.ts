import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from './config';
import { applyRunEnv, findCheckoutRoot, loadOperatorConfig, parseEnvFile } from './run-env';

describe('parseEnvFile', () => {
  it('reads KEY=value lines, skipping comments and blanks, unquoting once', () => {
    expect(
      parseEnvFile('# written by run.sh\n\nDATABASE_URL=postgres://u:p@h:5432/db?x=1\nexport A="quoted value"\nB=\'single\'\nC=\nnot a line\n'),
    ).toEqual({ DATABASE_URL: 'postgres://u:p@h:5432/db?x=1', A: 'quoted value', B: 'single', C: '' });
  });
});

describe('applyRunEnv', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'run-env-'));
    mkdirSync(join(root, 'scripts'));
    writeFileSync(join(root, 'scripts', 'run.sh'), '');
    writeFileSync(join(root, 'package.json'), '{}');
    mkdirSync(join(root, 'dist', 'apps', 'ops', 'src'), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds the checkout from the script location, not the working directory', () => {
    expect(findCheckoutRoot(join(root, 'dist', 'apps', 'ops', 'src'))).toBe(root);
    expect(findCheckoutRoot(tmpdir())).toBeNull();
  });

  it('fills what the environment lacks from .run/*.env; the environment wins', () => {
    mkdirSync(join(root, '.run'));
    writeFileSync(join(root, '.run', 'ops.env'), 'DATABASE_URL=postgres://from-file/db\nKAFKA_BROKERS=127.0.0.1:9999\n');
    writeFileSync(join(root, '.run', 'secrets.env'), 'API_KEY_PEPPER=pepper\nDATABASE_URL=postgres://second-file/db\n');
    writeFileSync(join(root, '.run', 'notes.txt'), 'IGNORED=1\n');
    const env: NodeJS.ProcessEnv = { KAFKA_BROKERS: '10.0.0.1:9092' };
    const result = applyRunEnv(env, join(root, 'dist', 'apps', 'ops', 'src'));
    expect(env).toEqual({ KAFKA_BROKERS: '10.0.0.1:9092', DATABASE_URL: 'postgres://from-file/db', API_KEY_PEPPER: 'pepper' });
    expect(result.files).toEqual([join(root, '.run', 'ops.env'), join(root, '.run', 'secrets.env')]);
    expect(result.applied.sort()).toEqual(['API_KEY_PEPPER', 'DATABASE_URL']);
  });

  it('loadOperatorConfig: the files under the environment, parsed; a hint when there are none', () => {
    const schema = z.object({ DATABASE_URL: z.string().url() });
    const from = join(root, 'dist', 'apps', 'ops', 'src');
    let error: unknown;
    try {
      loadOperatorConfig(schema, {}, from);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(/DATABASE_URL: [\s\S]*no \.run\/\*\.env in this checkout: run `npm start` first/);
    mkdirSync(join(root, '.run'));
    writeFileSync(join(root, '.run', 'ops.env'), 'DATABASE_URL=postgres://h/db\n');
    expect(loadOperatorConfig(schema, {}, from)).toEqual({ DATABASE_URL: 'postgres://h/db' });
  });

  it('does nothing without a .run folder', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(applyRunEnv(env, join(root, 'dist'))).toEqual({ files: [], applied: [] });
    expect(env).toEqual({});
  });
});
