import { ConfigError } from '@app/config';
import { loadIngestIrConfig } from './ingest-ir.config';

const UA = 'FilingsPlatformBot/1.0 (+ops@filings.example)';
const SITE = { cik: '844059', ticker: 'FRPH', name: 'FRP Holdings, Inc.', landing_url: 'http://www.frpholdings.com/investor-relations.html' };
const noFile = (): string => {
  throw new Error('no file expected');
};

describe('loadIngestIrConfig', () => {
  it('parses the registry from IR_SITES with defaults', () => {
    const config = loadIngestIrConfig({ IR_USER_AGENT: UA, IR_SITES: JSON.stringify([SITE]) }, noFile);
    expect(config.sites).toEqual([{ ...SITE, cik: '0000844059', pages: {}, documents: [] }]);
    expect(config).toMatchObject({ IR_MAX_RPS_PER_HOST: 1, IR_MAX_PAGES_PER_SITE: 10, KAFKA_TOPIC_NAMESPACE: '', IR_ALLOW_PRIVATE_HOSTS: false });
  });

  it('reads IR_ALLOW_PRIVATE_HOSTS as a boolean ("false" is false) and refuses other words', () => {
    const sites = JSON.stringify([SITE]);
    expect(loadIngestIrConfig({ IR_USER_AGENT: UA, IR_SITES: sites, IR_ALLOW_PRIVATE_HOSTS: 'true' }, noFile).IR_ALLOW_PRIVATE_HOSTS).toBe(true);
    expect(loadIngestIrConfig({ IR_USER_AGENT: UA, IR_SITES: sites, IR_ALLOW_PRIVATE_HOSTS: 'false' }, noFile).IR_ALLOW_PRIVATE_HOSTS).toBe(false);
    expect(() => loadIngestIrConfig({ IR_USER_AGENT: UA, IR_SITES: sites, IR_ALLOW_PRIVATE_HOSTS: 'yes' }, noFile)).toThrow(/IR_ALLOW_PRIVATE_HOSTS/);
  });

  it('reads IR_SITES_FILE', () => {
    const config = loadIngestIrConfig({ IR_USER_AGENT: UA, IR_SITES_FILE: '/etc/ir.json' }, (path) => (path === '/etc/ir.json' ? JSON.stringify([SITE]) : ''));
    expect(config.sites.map((s) => s.cik)).toEqual(['0000844059']);
  });

  it('reports every problem at once: variables and registry entries', () => {
    const sites = [{ ...SITE, landing_url: 'ftp://x' }, { ...SITE, pages: { about: 'http://x' } }, { cik: 'abc', name: '' }];
    let error: unknown;
    try {
      loadIngestIrConfig({ IR_USER_AGENT: 'nobody', IR_MAX_RPS_PER_HOST: '0', IR_SITES: JSON.stringify(sites) }, noFile);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/IR_USER_AGENT/);
    expect(problems).toMatch(/IR_MAX_RPS_PER_HOST/);
    expect(problems).toMatch(/IR_SITES\[0\.landing_url\]/);
    expect(problems).toMatch(/IR_SITES\[1\.pages\]: Unrecognized key/);
    expect(problems).toMatch(/IR_SITES\[2\.cik\]/);
    expect(problems).toMatch(/IR_SITES\[2\.landing_url\]/);
    expect(problems).toMatch(/IR_SITES\[1\.cik\]: CIK 0000844059 is listed twice|IR_SITES\[/);
  });

  it('refuses both IR_SITES and IR_SITES_FILE, and JSON that is not JSON', () => {
    expect(() => loadIngestIrConfig({ IR_USER_AGENT: UA, IR_SITES: '[]', IR_SITES_FILE: 'x' }, noFile)).toThrow(/not both/);
    expect(() => loadIngestIrConfig({ IR_USER_AGENT: UA, IR_SITES: '[{' }, noFile)).toThrow(/not JSON/);
  });
});
