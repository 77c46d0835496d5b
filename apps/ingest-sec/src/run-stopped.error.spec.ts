import { PublishGaveUpError } from '@app/messaging';
import { EX_TEMPFAIL, filingRunStop, progressOf, RunStoppedError, stoppedBy, stoppedExit, type RunStop } from './run-stopped.error';

const gaveUp = new PublishGaveUpError('edgar.segments.v1', 12, 300_000, new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9092'));
const stop: RunStop = { progress: 'after 1 of 3 filings done (40 records published)', done: { runId: 'run_t', published: 40 }, resume: 'run the same command again' };

describe('progressOf', () => {
  it('counts every item asked for, and those done before the stop', () => {
    expect(progressOf(0, 3, 'companies')).toBe('after 0 of 3 companies done');
    expect(progressOf(2, 3, 'companies')).toBe('after 2 of 3 companies done');
  });

  it('a list of filings stopped at its first filing: none of them done', () => {
    expect(filingRunStop(0, 3, { published: 0 }, Date.now(), '0000950170-25-100235').progress).toBe('after 0 of 3 filings done (0 records published)');
  });
});

describe('stoppedBy', () => {
  it('turns a broker outage into a RunStoppedError saying what was done', () => {
    const error = stoppedBy(gaveUp, () => stop);
    expect(error).toBeInstanceOf(RunStoppedError);
    expect((error as RunStoppedError).cause).toBe(gaveUp);
    expect((error as RunStoppedError).message).toBe(
      'stopped after 1 of 3 filings done (40 records published): gave up publishing 12 records to edgar.segments.v1 after 300 s: Connection error: connect ECONNREFUSED 127.0.0.1:9092; run the same command again',
    );
  });

  it('leaves any other error as it is, without asking what was done', () => {
    const other = new Error('invalid record');
    const done = jest.fn(() => stop);
    expect(stoppedBy(other, done)).toBe(other);
    expect(done).not.toHaveBeenCalled();
  });
});

describe('stoppedExit', () => {
  it('exits 75 at a stopped run: the message, then one JSON line of what was done', () => {
    const exit = stoppedExit(new RunStoppedError(stop, gaveUp), 'ingest-sec segments');
    expect(exit?.code).toBe(EX_TEMPFAIL);
    expect(EX_TEMPFAIL).toBe(75);
    expect(exit?.lines).toHaveLength(2);
    expect(exit?.lines[0]).toMatch(/^ingest-sec segments: stopped after 1 of 3 filings done .*; run the same command again$/);
    expect(JSON.parse(exit!.lines[1]!)).toEqual({ level: 'error', msg: 'ingest-sec segments stopped', runId: 'run_t', published: 40 });
  });

  it('exits 75 at an outage the use case did not wrap', () => {
    expect(stoppedExit(gaveUp, 'ingest-sec nport')).toEqual({ code: 75, lines: [`ingest-sec nport: stopped: ${gaveUp.message}; run the same command again`] });
  });

  it('has no exit for any other error (the caller rethrows it: exit 1)', () => {
    expect(stoppedExit(new Error('boom'), 'ingest-sec bulk')).toBeNull();
    expect(stoppedExit('boom', 'ingest-sec bulk')).toBeNull();
  });
});
