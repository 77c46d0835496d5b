import { loadConfig } from '@app/config';
import { nportConfigSchema, nportLiveRefusal } from './nport.config';

const config = (env: Record<string, string> = {}) => loadConfig(nportConfigSchema, { EDGAR_USER_AGENT: 'Filings Platform ops@filings.example', ...env });

describe('nportLiveRefusal', () => {
  it('lets --live go with named filings (--filing, NPORT_FILINGS)', () => {
    expect(nportLiveRefusal(1, config())).toBeNull();
    expect(nportLiveRefusal(2, config({ NPORT_FILINGS: '2230:0000002230-23-000034' }))).toBeNull();
  });

  it('refuses --live without a named filing, or with NPORT_DISCOVER (a registrant history is not news)', () => {
    expect(nportLiveRefusal(0, config())).toMatch(/^--live announces named filings: give --filing/);
    expect(nportLiveRefusal(1, config({ NPORT_DISCOVER: '2230' }))).toMatch(/NPORT_DISCOVER .*unset NPORT_DISCOVER/);
  });
});
