import { parseDocumentWorkerArgs } from './document-worker.bootstrap';

const FILING = '796343:0000796343-23-000044';

describe('parseDocumentWorkerArgs', () => {
  it('takes --filing (repeatable) and --follow; named filings are history by default', () => {
    expect(parseDocumentWorkerArgs(['--filing', FILING, '--filing', '1:0000000001-23-000001'], true)).toEqual({ filings: [FILING, '1:0000000001-23-000001'], follow: false, live: false });
    expect(parseDocumentWorkerArgs(['--follow'], true)).toEqual({ filings: [], follow: true, live: false });
    expect(parseDocumentWorkerArgs(['--follow', '-h'], false)).toEqual({ help: true });
  });

  it('--live marks the --filing filings as live discoveries (also beside --follow)', () => {
    expect(parseDocumentWorkerArgs(['--filing', FILING, '--live'], true)).toEqual({ filings: [FILING], follow: false, live: true });
    expect(parseDocumentWorkerArgs(['--live', '--follow', '--filing', FILING], true)).toEqual({ filings: [FILING], follow: true, live: true });
  });

  it.each([
    [['--live'], true, /--live marks the --filing filings as live discoveries: give at least one --filing/],
    [['--follow', '--live'], true, /give at least one --filing/],
    // A worker that does not offer it (sections, segments) does not know the option.
    [['--filing', FILING, '--live'], false, /^--live is not offered here: these records make no webhook event$/],
    [['--filing', FILING, '--live=yes'], true, /does not take an argument/],
    [[], true, /give --filing or --follow/],
    [['--filing'], true, /argument missing/],
  ])('rejects %j (offers --live: %s)', (argv, offersLive, message) => {
    const parsed = parseDocumentWorkerArgs(argv, offersLive);
    expect('error' in parsed && parsed.error).toMatch(message);
  });
});
