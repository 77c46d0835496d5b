import { spawn, type ChildProcess } from 'node:child_process';

/*
 * Rows streamed into `COPY <table> (<columns>) FROM STDIN` through psql (pg-copy-streams is not a
 * dependency): one psql process per table, fed row by row with back-pressure, so a table of ten
 * million rows never sits in memory.
 */

/** One value in COPY's text format: \N for null, JSON for objects (jsonb), t/f, escaped text. */
export function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof Date) return v.toISOString();
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

/** A running COPY into one table: `write` rows (objects keyed by column), then `end`. */
export class CopyStream {
  private readonly child: ChildProcess;
  private readonly done: Promise<void>;
  private buffer: string[] = [];
  rows = 0;

  constructor(
    url: string,
    readonly table: string,
    readonly columns: readonly string[],
  ) {
    const sql = `COPY ${table} (${columns.join(', ')}) FROM STDIN`;
    this.child = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    this.child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    // A write after psql died (bad row) would raise EPIPE: the exit code carries the error instead.
    this.child.stdin?.on('error', () => undefined);
    this.done = new Promise((ok, fail) => {
      this.child.on('error', fail);
      this.child.on('exit', (code) => (code === 0 ? ok() : fail(new Error(`COPY ${table}: psql exited with ${code}: ${err.trim()}`))));
    });
    // Reported by end(); an early failure must not be an unhandled rejection meanwhile.
    this.done.catch(() => undefined);
  }

  /** Queues a row; resolves at once unless psql's pipe is full. */
  async write(row: Record<string, unknown>): Promise<void> {
    this.buffer.push(this.columns.map((c) => copyValue(row[c])).join('\t'));
    this.rows += 1;
    if (this.buffer.length >= 500) await this.flush();
  }

  /** Queues a row already in COPY's text format (no newline): for rows formatted once and written many times. */
  async writeLine(line: string): Promise<void> {
    this.buffer.push(line);
    this.rows += 1;
    if (this.buffer.length >= 500) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = `${this.buffer.join('\n')}\n`;
    this.buffer = [];
    const stdin = this.child.stdin!;
    if (this.child.exitCode !== null) return this.done;
    if (!stdin.write(chunk)) {
      await new Promise<void>((ok) => {
        const done = (): void => {
          stdin.off('drain', done);
          this.child.off('exit', done);
          ok();
        };
        stdin.once('drain', done);
        this.child.once('exit', done);
      });
    }
  }

  /** Sends the rest and waits for COPY to commit; rejects with psql's error. */
  async end(): Promise<number> {
    await this.flush();
    this.child.stdin?.end();
    await this.done;
    return this.rows;
  }

  /** Stops psql (on failure elsewhere); what it had is rolled back. */
  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
  }
}
