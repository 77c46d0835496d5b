import { logLevel } from 'kafkajs';
import { KAFKA_LOG_REPEAT_WINDOW_MS, toLogCreator } from './kafka.client';
import type { MessagingLogger } from './messaging.logger';

describe('kafkajs log lines', () => {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg?: string }> = [];
  const logger: MessagingLogger = {
    info: (obj, msg) => lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
    warn: (obj, msg) => lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
    error: (obj, msg) => lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
  };
  let clock = 0;
  const write = toLogCreator(logger, () => clock)(logLevel.INFO);
  const entry = (namespace: string, level: logLevel, message: string) => ({ namespace, level, label: 'ERROR', log: { timestamp: '', message, broker: '127.0.0.1:9092' } });

  beforeEach(() => {
    lines.length = 0;
  });

  it('writes the same line once per window, then says how many it left out', () => {
    for (let i = 0; i < 50; i += 1) write(entry('Producer', logLevel.ERROR, 'Failed to send messages'));
    expect(lines).toEqual([{ level: 'error', msg: 'Failed to send messages', obj: expect.objectContaining({ component: 'kafkajs', namespace: 'Producer' }) }]);
    clock += KAFKA_LOG_REPEAT_WINDOW_MS;
    write(entry('Producer', logLevel.ERROR, 'Failed to send messages'));
    expect(lines[1]!.obj.repeated).toBe(49);
    // Another message, or the same in another namespace, is its own line.
    write(entry('Consumer', logLevel.ERROR, 'Failed to send messages'));
    write(entry('Producer', logLevel.ERROR, 'Crash'));
    expect(lines).toHaveLength(4);
  });

  it('logs a connection failure as a warning: the code that retries reports the outcome', () => {
    write(entry('Connection', logLevel.ERROR, 'Connection error: connect ECONNREFUSED 127.0.0.1:9092'));
    write(entry('Consumer', logLevel.WARN, 'Restarting the consumer'));
    expect(lines.map((l) => l.level)).toEqual(['warn', 'warn']);
  });
});
