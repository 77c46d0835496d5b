import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { extractTenkIrWebsite } from './ir-website.extractor';
import { extractTenkSections } from './tenk-sections.extractor';

/** Item 1 of a fixture 10-K as the sections worker publishes it (tenk-section@1 text). */
function item1(file: string): string {
  const extraction = extractTenkSections(readFileSync(join(defaultFixturesDir(), 'tenk', file)));
  const s = extraction.sections.find((x) => x.item === '1')!;
  return extraction.text.slice(s.charStart!, s.charEnd!);
}

describe('extractTenkIrWebsite on Item 1 of real 10-Ks', () => {
  it('Tesla: "on our investor relations website at ir.tesla.com"', () => {
    const text = item1('TSLA-tsla-10-k-2025-01-30.html');
    const found = extractTenkIrWebsite(text)!;
    expect(found).toMatchObject({ url: 'https://ir.tesla.com/', cue: 'investor_relations_website' });
    expect(found.quote).toMatch(/on our investor relations website at ir\.tesla\.com/);
    expect(text).toContain(found.quote);
  });

  it('Amazon: "Our investor relations website is amazon.com/ir"', () => {
    const text = item1('AMZN-amzn-10-k-2025-02-07.html');
    const found = extractTenkIrWebsite(text)!;
    expect(found).toMatchObject({ url: 'https://amazon.com/ir/', cue: 'investor_relations_website' });
    expect(found.quote).toMatch(/^Our investor relations website is amazon\.com\/ir/);
    expect(text).toContain(found.quote);
  });

  it('Wells Fargo: the filings page under /investor-relations/, not "Our website address is www.wellsfargo.com"', () => {
    const text = item1('WFC-wfc-10-k-2025-02-25.html');
    const found = extractTenkIrWebsite(text)!;
    expect(found).toMatchObject({ url: 'https://www.wellsfargo.com/about/investor-relations/', cue: 'ir_url' });
    expect(found.quote).toMatch(/available for free at www\.wellsfargo\.com\/about\/investor-relations\/filings/);
    expect(text).toContain(found.quote);
  });

  it('text naming only SEC\'s site and a plain homepage names no IR website', () => {
    const text = item1('WFC-wfc-10-k-2025-02-25.html');
    const withoutIr = text.replace(/www\.wellsfargo\.com\/about\/investor-relations\/filings/g, 'the filings page');
    expect(withoutIr).toMatch(/www\.sec\.gov/);
    expect(withoutIr).toMatch(/Our website address is www\.wellsfargo\.com/);
    expect(extractTenkIrWebsite(withoutIr)).toBeNull();
  });
});
