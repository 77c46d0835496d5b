import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './kafka';
import { chooseTestInfra, startTestContainers } from './test-infra';

/**
 * The test infrastructure choice, for scripts/test.sh:
 *   node dist/libs/testing/src/test-infra.cli.js choose
 *     prints environment|containers|local on stdout (the reason on stderr)
 *   node dist/libs/testing/src/test-infra.cli.js with-containers <command> [args...]
 *     starts Kafka, Postgres and Redis containers, runs the command with KAFKA_BROKERS,
 *     DATABASE_URL and REDIS_URL pointing at them, then stops them, also when the command fails
 *     or the run is interrupted; exits with the command's status.
 */
function say(line: string): void {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`);
}

async function withContainers(command: string[]): Promise<number> {
  const [file, ...args] = command;
  if (!file) throw new Error('with-containers needs a command to run');
  // Ctrl-C reaches the whole process group: the command ends on it, and the containers are stopped
  // below, also when it comes while they start. A TERM sent to this process alone is passed on.
  let signalled: NodeJS.Signals | undefined;
  let child: ChildProcess | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    signalled = signal;
    child?.kill(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const started = Date.now();
  say('test infrastructure: containers; starting Kafka, Postgres and Redis (images and settings from docker-compose.yml)');
  const containers = await startTestContainers(join(repoRoot(), 'docker-compose.yml'));
  for (const line of containers.describe()) say(`test infrastructure: ${line}`);
  say(`test infrastructure: containers ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  let status = signalled ? 1 : 0;
  if (!signalled) {
    const running = spawn(file, args, { stdio: 'inherit', env: { ...process.env, ...containers.env } });
    child = running;
    status = await new Promise<number>((resolve) => {
      running.on('error', (e) => {
        say(`cannot run ${file}: ${e.message}`);
        resolve(127);
      });
      running.on('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 143)));
    });
  }
  say('test infrastructure: stopping the containers');
  await containers.stop();
  if (signalled) return signalled === 'SIGINT' ? 130 : 143;
  return status;
}

async function main(): Promise<number> {
  const [mode, ...rest] = process.argv.slice(2);
  if (mode === 'choose') {
    const choice = await chooseTestInfra(process.env);
    say(`test infrastructure: ${choice.kind} (${choice.reason})`);
    process.stdout.write(`${choice.kind}\n`);
    return 0;
  }
  if (mode === 'with-containers') return withContainers(rest);
  throw new Error('usage: test-infra.cli.js choose | with-containers <command> [args...]');
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    say(`test infrastructure: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
