import type { TopicDefinition } from '@app/contracts';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root: the nearest ancestor of this file holding scripts/kafka.sh. */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'scripts', 'kafka.sh'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`scripts/kafka.sh not found above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

let started: Promise<string[]> | undefined;

/**
 * Brokers for integration tests: KAFKA_BROKERS (comma-separated) when set, else the project's
 * single-node broker, started by `scripts/kafka.sh up` (idempotent, locked against parallel
 * callers; the first run fetches the jars with Maven). The broker is left running.
 */
export async function kafkaBrokersForTests(): Promise<string[]> {
  const fromEnv = process.env.KAFKA_BROKERS?.split(',').map((b) => b.trim()).filter(Boolean);
  if (fromEnv && fromEnv.length > 0) return fromEnv;
  started ??= new Promise<string[]>((resolve, reject) => {
    execFile(
      'bash',
      [join(repoRoot(), 'scripts', 'kafka.sh'), 'up'],
      { cwd: repoRoot(), timeout: 600_000, env: process.env },
      (error, stdout, stderr) => {
        if (error) {
          started = undefined;
          reject(new Error(`scripts/kafka.sh up failed: ${error.message}\n${stderr}`));
          return;
        }
        const bootstrap = stdout.trim().split('\n').pop();
        resolve([bootstrap || `127.0.0.1:${process.env.KAFKA_PORT ?? '9092'}`]);
      },
    );
  });
  return started;
}

function uniqueSuffix(suffix: string): string {
  const clean = suffix.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 60);
  return `${clean}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

/** A copy of a topic definition under a name no other test uses (its DLQ follows the name). */
export function uniqueTopic(def: TopicDefinition, suffix: string): TopicDefinition {
  const name = `test.${def.name}.${uniqueSuffix(suffix)}`;
  return { ...def, name, dlq: `${name}.dlq` };
}

/** A consumer group id no other test uses. */
export function uniqueGroupId(suffix: string): string {
  return `test-${uniqueSuffix(suffix)}`;
}
