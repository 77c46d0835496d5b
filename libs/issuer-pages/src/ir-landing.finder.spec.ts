import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { findIrLandingIn } from './ir-landing.finder';

const FRPH_SITE = 'http://www.frpholdings.com';

function fixture(file: string): Buffer {
  return readFileSync(join(defaultFixturesDir(), 'ir-pages', file));
}

describe('findIrLanding on real issuer pages', () => {
  // The FRPH homepage was not saved; its other pages carry the same nav bar ("Home", "Investor Relations", ...).
  it.each(['FRPH-contactus.html', 'FRPH-executive-team.html'])('%s: the "Investor Relations" nav link', (file) => {
    expect(findIrLandingIn(fixture(file), `${FRPH_SITE}/${file.replace('FRPH-', '')}`)).toEqual({
      url: `${FRPH_SITE}/investor-relations.html`,
      cue: 'text',
      quote: 'Investor Relations',
    });
  });

  it('FRPH presentations page: the nav link, not the "Investor Presentation" PDFs listed first in the text', () => {
    expect(findIrLandingIn(fixture('FRPH-frppresent.html'), `${FRPH_SITE}/frppresent.html`)).toMatchObject({ url: `${FRPH_SITE}/investor-relations.html`, cue: 'text' });
  });

  it('FRPH landing page itself: its own nav link is skipped, and the page is at an IR path', () => {
    expect(findIrLandingIn(fixture('FRPH-investor-relations.html'), `${FRPH_SITE}/investor-relations.html`)).toMatchObject({
      url: `${FRPH_SITE}/investor-relations.html`,
      cue: 'self',
    });
  });

  it('BRAI: links to its ir. subdomain land on that host\'s root', () => {
    expect(findIrLandingIn(fixture('BRAI-investors.html'), 'https://braiin.com/investors')).toEqual({ url: 'https://ir.braiin.com/', cue: 'host', quote: 'SEC Filings Access annual and quarterly reports, proxy statements, and other SEC filings.' });
  });

  it('BRAI served from another host (the fixture server): the ir. links are another site, the page is at /investors', () => {
    expect(findIrLandingIn(fixture('BRAI-investors.html'), 'http://127.0.0.1:8080/investors')).toMatchObject({ url: 'http://127.0.0.1:8080/investors', cue: 'self' });
  });

  it('BRAI at a plain path of another host finds nothing: no link says Investors and the page is at no IR URL', () => {
    expect(findIrLandingIn(fixture('BRAI-investors.html'), 'http://127.0.0.1:8080/index.html')).toBeNull();
  });
});
