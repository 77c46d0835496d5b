import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './kafka';

export interface OwnKafkaOptions {
  /** Broker port of node 0; node i listens on port + 2i (scripts/kafka.sh). Never 9092: that broker is shared. */
  port: number;
  /** Controller port of node 0; node i on controllerPort + 2i. */
  controllerPort: number;
  /** 1 or 3 (KAFKA_NODES). */
  nodes?: number;
  /**
   * Where the nodes keep pid files, logs and data. A fixed directory per port: a run killed before
   * its clean-up left nodes running there, and the next `up` finds and reuses them instead of
   * failing on a port it does not know.
   */
  runDir: string;
}

/**
 * A Kafka cluster of a test's own, on ports of its own, for tests that stop or kill brokers:
 * `scripts/kafka.sh` with KAFKA_PORT / KAFKA_CONTROLLER_PORT / KAFKA_RUN_DIR / KAFKA_NODES.
 * Never use it on the shared broker's ports.
 */
export class OwnKafka {
  readonly nodes: number;

  constructor(private readonly options: OwnKafkaOptions) {
    if (options.port === 9092 || options.controllerPort === 9093) throw new Error('OwnKafka must not use the shared broker ports 9092/9093');
    this.nodes = options.nodes ?? 1;
  }

  /** Bootstrap addresses of every node. */
  get brokers(): string[] {
    return Array.from({ length: this.nodes }, (_, i) => `127.0.0.1:${this.options.port + 2 * i}`);
  }

  /** Starts every node that is not running (all of them the first time) and waits until they answer. */
  up(): Promise<void> {
    return this.script('up');
  }

  /** Stops every node gracefully. */
  down(): Promise<void> {
    return this.script('down');
  }

  /** SIGKILLs node `i` (a crash: no controlled shutdown). */
  kill(i: number): void {
    const pidFile = join(this.options.runDir, `kafka-${this.options.port + 2 * i}.pid`);
    process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGKILL');
  }

  private script(command: 'up' | 'down'): Promise<void> {
    const env = {
      ...process.env,
      KAFKA_PORT: String(this.options.port),
      KAFKA_CONTROLLER_PORT: String(this.options.controllerPort),
      KAFKA_RUN_DIR: this.options.runDir,
      KAFKA_NODES: String(this.nodes),
      KAFKA_HEAP_OPTS: process.env.OWN_KAFKA_HEAP_OPTS ?? '-Xms96m -Xmx256m',
      KAFKA_STOP_TIMEOUT: '15',
    };
    return new Promise((resolve, reject) => {
      execFile('bash', [join(repoRoot(), 'scripts', 'kafka.sh'), command], { cwd: repoRoot(), env, timeout: 300_000 }, (error, _stdout, stderr) => {
        if (error) reject(new Error(`scripts/kafka.sh ${command} failed: ${error.message}\n${stderr}`));
        else resolve();
      });
    });
  }
}
