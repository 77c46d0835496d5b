import { answerArgumentless, helpRequested } from './cli-help';

describe('cli help', () => {
  let out: jest.SpyInstance;
  let err: jest.SpyInstance;
  beforeEach(() => {
    out = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    err = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('--help and -h anywhere', () => {
    expect(helpRequested(['--follow', '--help'])).toBe(true);
    expect(helpRequested(['-h'])).toBe(true);
    expect(helpRequested(['--follow'])).toBe(false);
  });

  it('an argumentless CLI: help exits 0 on stdout, an argument 2 on stderr, nothing runs', () => {
    expect(answerArgumentless('tool', ['--help'], 'usage: tool')).toBe(0);
    expect(out).toHaveBeenCalledWith('usage: tool');
    expect(answerArgumentless('tool', ['--frob'], 'usage: tool')).toBe(2);
    expect(err).toHaveBeenCalledWith('tool: unexpected argument "--frob"\nusage: tool');
    expect(answerArgumentless('tool', [], 'usage: tool')).toBeNull();
  });
});
