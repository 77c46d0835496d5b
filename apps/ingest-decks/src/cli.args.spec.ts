import { parseArgs } from './cli.args';

describe('parseArgs', () => {
  it('consumes by default, drains with --once', () => {
    expect(parseArgs([])).toEqual({ mode: 'consume' });
    expect(parseArgs(['--once'])).toEqual({ mode: 'once' });
  });

  it('--help and -h ask for the usage', () => {
    expect(parseArgs(['--help'])).toEqual({ help: true });
    expect(parseArgs(['--once', '-h'])).toEqual({ help: true });
  });

  it('reads one PDF link with --url', () => {
    expect(parseArgs(['--url', 'https://www.frpholdings.com/assets/Annual_Meeting_-_2015_FINAL2.pdf', '--cik', '844059', '--ticker', 'frph', '--kind', 'presentation'])).toEqual({
      mode: 'url',
      link: { url: 'https://www.frpholdings.com/assets/Annual_Meeting_-_2015_FINAL2.pdf', cik: '0000844059', ticker: 'FRPH', title: null, kind: 'presentation' },
      origin: 'backfill',
    });
    expect(parseArgs(['--url', 'http://127.0.0.1:8080/a.pdf', '--cik', '1', '--title', 'Q3 deck'])).toMatchObject({ link: { title: 'Q3 deck', kind: null, ticker: null } });
  });

  it('--live marks the --url PDF as a live discovery; without it the PDF is history', () => {
    expect(parseArgs(['--url', 'https://x.example/a.pdf', '--live', '--cik', '1'])).toMatchObject({ mode: 'url', origin: 'live', link: { url: 'https://x.example/a.pdf' } });
    expect(parseArgs(['--live', '--url', 'https://x.example/a.pdf', '--cik', '1'])).toMatchObject({ mode: 'url', origin: 'live' });
    expect(parseArgs(['--url', 'https://x.example/a.pdf', '--cik', '1'])).toMatchObject({ mode: 'url', origin: 'backfill' });
  });

  it.each([
    [['--live'], /--live goes with --url/],
    [['--once', '--live'], /--live goes with --url/],
    [['--url', 'https://x.example/a.pdf', '--cik', '1', '--live', 'yes'], /unknown argument "yes"/],
    [['--url', 'https://x.example/a.pdf'], /--cik/],
    [['--cik', '1'], /--url is required/],
    [['--url', 'ftp://x.example/a.pdf', '--cik', '1'], /http\(s\) URL/],
    [['--url', 'https://x.example/a.pdf', '--cik', '1', '--kind', 'deck'], /--kind wants one of presentation, press_release/],
    [['--once', '--url', 'https://x.example/a.pdf', '--cik', '1'], /one or the other/],
    [['--url'], /--url needs a value/],
    [['--verbose'], /unknown argument "--verbose"/],
  ])('rejects %j', (args, message) => {
    const parsed = parseArgs(args);
    expect('error' in parsed && parsed.error).toMatch(message);
  });
});
