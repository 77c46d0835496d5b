import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { extractIssuerPage, type IssuerPageExtract } from './issuer-page.extractor';
import { pageText } from './page-text';

const FRPH = { cik: '0000844059', name: 'FRP Holdings, Inc.', ticker: 'FRPH' };
const BRAI = { cik: '0009999001', name: 'Braiin Limited', ticker: 'BRAI' };
const FRPH_SITE = 'http://www.frpholdings.com';

function fixture(file: string): Buffer {
  return readFileSync(join(defaultFixturesDir(), 'ir-pages', file));
}

/** Every quote an extract carries, for the "verbatim in pageText" check. */
function quotes(x: IssuerPageExtract): string[] {
  return [
    ...(x.description?.source === 'text' ? [x.description.quote] : []),
    ...x.irContacts.map((e) => e.quote),
    ...x.analysts.map((e) => e.quote),
    ...x.executives.map((e) => e.quote),
    ...x.documents.map((d) => d.quote),
  ];
}

const PAGES: Array<[string, string, typeof FRPH]> = [
  ['FRPH-investor-relations.html', `${FRPH_SITE}/investor-relations.html`, FRPH],
  ['FRPH-contactus.html', `${FRPH_SITE}/contactus.html`, FRPH],
  ['FRPH-executive-team.html', `${FRPH_SITE}/executive-team.html`, FRPH],
  ['FRPH-frppresent.html', `${FRPH_SITE}/frppresent.html`, FRPH],
  ['BRAI-investors.html', 'https://braiin.com/investors', BRAI],
];

describe('extractIssuerPage on every fixture page', () => {
  it.each(PAGES)('%s: every quote stands verbatim in pageText, and no page lists analysts', (file, url, issuer) => {
    const html = fixture(file);
    const x = extractIssuerPage(html, url, issuer);
    const text = pageText(html);
    for (const quote of quotes(x)) expect(text).toContain(quote);
    expect(x.analysts).toEqual([]);
  });
});

describe('FRPH investor-relations.html (landing: dated list of releases, calls and decks)', () => {
  const x = extractIssuerPage(fixture('FRPH-investor-relations.html'), `${FRPH_SITE}/investor-relations.html`, FRPH);

  it('lists its 12 document links (PDFs and call recordings), nav links excluded', () => {
    expect(x.documents).toHaveLength(12);
    expect(x.documents.filter((d) => d.is_pdf)).toHaveLength(6);
    expect(x.documents.filter((d) => d.kind === 'webcast')).toHaveLength(6);
    expect(x.documents.map((d) => d.url)).not.toContain(`${FRPH_SITE}/frppresent.html`);
  });

  it('reads the September 2017 deck: absolute URL, title without the date, 09/28/2017 (the page prints "0" outside the link)', () => {
    expect(x.documents.find((d) => d.url === `${FRPH_SITE}/assets/FRP_Investor_Presentation.pdf`)).toEqual({
      url: `${FRPH_SITE}/assets/FRP_Investor_Presentation.pdf`,
      title: 'FRP Holdings Inc. Investor Presentation September 2017',
      kind: 'presentation',
      published_on: '2017-09-28',
      is_pdf: true,
      event: null,
      quote: '09/28/2017-FRP Holdings Inc. Investor Presentation September 2017',
    });
    // Upper-case .PDF is a PDF too.
    expect(x.documents.find((d) => d.url.endsWith('2015_Annual_Meeting_-_FRPH_FINAL.PDF'))).toMatchObject({ is_pdf: true, published_on: '2016-02-03', kind: 'presentation' });
  });

  it('groups the 05/04/2016 results release and the call recording into one event titled by the call', () => {
    const call = x.documents.find((d) => d.url === 'http://stream.conferenceamerica.com/FRP050416.m3u')!;
    const release = x.documents.find((d) => d.url === `${FRPH_SITE}/assets/FRPH_2016_2nd_Qtr_Press_Release_FINAL.pdf`)!;
    expect(call).toMatchObject({ kind: 'webcast', published_on: '2016-05-04', is_pdf: false });
    expect(release).toMatchObject({ kind: 'press_release', published_on: '2016-05-04', title: 'FRP HOLDINGS, INC. (NASDAQ:FRPH) ANNOUNCES RESULTS FOR THE SECOND QUARTER OF FISCAL 2016' });
    expect(release.event).toEqual(call.event);
    expect(call.event).toEqual({
      key: '0000844059|2016-05-04|conference call 1pm et frp holdings inc nasdaq frph announces results for the second quarter and details for the earnings conference call',
      title: 'CONFERENCE CALL 1PM ET - FRP HOLDINGS, INC. (NASDAQ:FRPH) ANNOUNCES RESULTS FOR THE SECOND QUARTER AND DETAILS FOR THE EARNINGS CONFERENCE CALL',
      date: '2016-05-04',
    });
  });

  it('keeps the date as printed (the 11/22/2017 call line is not corrected to the release\'s 2016), so those two are separate events', () => {
    const call = x.documents.find((d) => d.url.endsWith('frp112816.mp3'))!;
    const release = x.documents.find((d) => d.url.endsWith('FRPH_2016_4th_Qtr_PRF.pdf'))!;
    expect(call.published_on).toBe('2017-11-22');
    expect(release.published_on).toBe('2016-11-22');
    expect(call.event?.key).not.toBe(release.event?.key);
  });

  it('finds the contact, management, presentations, press and report pages from the nav', () => {
    expect(x.links).toEqual({
      contact: [`${FRPH_SITE}/contactus.html`],
      management: [`${FRPH_SITE}/executive-team.html`],
      presentations: [`${FRPH_SITE}/frppresent.html`],
      press: [`${FRPH_SITE}/frphpress.html`],
      reports: [`${FRPH_SITE}/frphproxy.html`, `${FRPH_SITE}/frphanulrpt.html`, `${FRPH_SITE}/frp10q.html`],
    });
  });

  it('has no contacts, executives or description (its meta description is empty)', () => {
    expect(x.irContacts).toEqual([]);
    expect(x.executives).toEqual([]);
    expect(x.description).toBeNull();
  });
});

describe('FRPH contactus.html', () => {
  const x = extractIssuerPage(fixture('FRPH-contactus.html'), `${FRPH_SITE}/contactus.html`, FRPH);

  it('takes "Attn: John Milton" under the FRP Holdings, Inc. address as the IR contact, with the toll-free number', () => {
    expect(x.irContacts).toEqual([
      {
        name: 'John Milton',
        role: 'Investor Relations',
        affiliation: 'FRP Holdings, Inc.',
        email: null,
        phone: '(877) 704-1776',
        quote: 'FRP Holdings, Inc.\n200 West Forsyth St., 7th Floor\nJacksonville, FL 32202\n(877) 704-1776(877) 704-1776 FREE(877) 704-1776(877) 704-1776 FREE FREE\nAttn: John Milton',
      },
    ]);
  });

  it('does not take "Attn: David H. deVilliers" of the FRP Development Corp (subsidiary) address', () => {
    expect(x.irContacts.map((c) => c.name)).not.toContain('David H. deVilliers');
  });
});

describe('FRPH executive-team.html', () => {
  const x = extractIssuerPage(fixture('FRPH-executive-team.html'), `${FRPH_SITE}/executive-team.html`, FRPH);

  it('reads the five executives and ranks them CEO, Executive Chairman, President, CFO, Controller/CAO', () => {
    expect(x.executives.map((e) => [e.name, e.role])).toEqual([
      ['Thompson S. Baker', 'Chief Executive Officer'],
      ['John D. Baker II', 'Executive Chairman'],
      ['David H. deVilliers Jr.', 'President'],
      ['John D. Milton Jr.', 'Executive Vice President, Treasurer, Chief Financial Officer and Secretary'],
      ['John D. Klopfenstein', 'Controller and Chief Accounting Officer'],
    ]);
    expect(x.executives.every((e) => e.affiliation === 'FRP Holdings, Inc.')).toBe(true);
    expect(x.executives[0]!.quote).toBe('Thompson S. Baker Chief Executive Officer');
  });

  it('takes the company paragraph as the description', () => {
    expect(x.description).toEqual({
      text: 'FRP Holdings, Inc., is a publicly traded company that is listed on the Nasdaq Stock Market. FRP Holdings, Inc., stock is traded under the symbol of "FRPH". All filings with the Securities and Exchange Commission are available under the Investor Relations page.',
      quote: 'FRP Holdings, Inc., is a publicly traded company that is listed on the Nasdaq Stock Market. FRP Holdings, Inc., stock is traded under the symbol of "FRPH". All filings with the Securities and Exchange Commission are available under the Investor Relations page.',
      source: 'text',
    });
  });
});

describe('FRPH frppresent.html (presentations)', () => {
  const x = extractIssuerPage(fixture('FRPH-frppresent.html'), `${FRPH_SITE}/frppresent.html`, FRPH);

  it('lists the six decks as presentations (section "Presentations:"), undated: month-only dates are not days', () => {
    expect(x.documents.map((d) => [d.url.replace(`${FRPH_SITE}/assets/`, ''), d.title])).toEqual([
      ['FRP_Investor_Presentation.pdf', 'FRP Holdings Inc. Investor Presentation September 2017'],
      ['2016_Annual_Meeting_-_FRPH_FINAL.PDF', 'FRP Holdings Inc. Investor Presentation February 2017'],
      ['2015_Annual_Meeting_-_FRPH_FINAL.PDF', 'FRP Holdings Inc. Investor Presentation February 2016'],
      ['2015_FRP_Investor_Presentation_2nd_Quarter_071315_FINAL.PDF', 'FRP Holdings Inc. Investor Presentation July 2015'],
      ['Annual_Meeting_-_2015_FINAL2.pdf', 'Annual Meeting - 2015 Annual Shareholder Meeting'],
      ['FRPHP11315.pdf', 'FRP Holdings Inc. Investor Presentation January 2015'],
    ]);
    expect(x.documents.every((d) => d.kind === 'presentation' && d.published_on === null && d.is_pdf)).toBe(true);
  });

  it('gives the annual meeting deck an undated event', () => {
    expect(x.documents[4]!.event).toEqual({
      key: '0000844059||annual meeting 2015 annual shareholder meeting',
      title: 'Annual Meeting - 2015 Annual Shareholder Meeting',
      date: null,
    });
  });
});

// Not in ../shared/fixtures: the sample holds it (the company's own saved page, same repository and commit as the
// other FRPH pages; see sample/SOURCES.md).
describe('FRPH frp10q.html (filings: links whose text is only a period, under a label naming the kind)', () => {
  const html = readFileSync(join(__dirname, '../../../sample/fixtures/ir-pages/FRPH-frp10q.html'));
  const x = extractIssuerPage(html, `${FRPH_SITE}/frp10q.html`, FRPH);
  const pdfs = x.documents.filter((d) => d.is_pdf);

  it('titles a link reading "SEPTEMBER 2015" by the label above it, and takes its kind from that label', () => {
    expect(pdfs.slice(0, 2).map((d) => [d.url.replace(`${FRPH_SITE}/assets/`, ''), d.title, d.kind])).toEqual([
      ['frph10k15.pdf', '10K Filings - SEPTEMBER 2015', 'annual_report'],
      ['frph10k1671294.pdf', '10K Filings - SEPTEMBER 2016', 'annual_report'],
    ]);
    // The 10-Qs are under "10Q Filings" (a bold line, not an h-tag): quarterly reports, not the h1's annual reports.
    const tenQs = pdfs.slice(2);
    expect(tenQs).toHaveLength(13);
    expect(tenQs.every((d) => d.kind === 'quarterly_report' && d.title.startsWith('10Q Filings - '))).toBe(true);
    expect(tenQs.find((d) => d.url.endsWith('/frph10qmar15a.pdf'))!.title).toBe('10Q Filings - MARCH 2015 - Amended');
  });

  it('names a PDF first linked with no text by its later listing (frphjunq17.pdf: "JUNE 2017")', () => {
    expect(pdfs.filter((d) => d.url.endsWith('/frphjunq17.pdf')).map((d) => [d.title, d.kind])).toEqual([['10Q Filings - JUNE 2017', 'quarterly_report']]);
  });

  it('quotes the lines from the label down to the link, verbatim', () => {
    const text = pageText(html);
    for (const d of pdfs) expect(text).toContain(d.quote);
    expect(pdfs.find((d) => d.url.endsWith('/frphsepq17.pdf'))!.quote).toBe('10Q Filings\nSEPTEMBER 2017');
  });
});

describe('BRAI investors.html', () => {
  const x = extractIssuerPage(fixture('BRAI-investors.html'), 'https://braiin.com/investors', BRAI);

  it('reads the IR Contact block: Scott Gordon of Core IR, e-mail and phone', () => {
    expect(x.irContacts).toEqual([
      {
        name: 'Scott Gordon',
        role: 'Investor Relations',
        affiliation: 'Core IR',
        email: 'scottg@coreir.com',
        phone: '+1 212-655-0924',
        quote: 'Scott Gordon · Core IR\nscottg@coreir.com · +1 212-655-0924',
      },
    ]);
  });

  it('refuses the meta description (it describes the IR page, not the company): no description', () => {
    expect(x.description).toBeNull();
  });

  it('has no executives and no documents (quick links are pages, not documents), and no same-host pages (they are on ir.braiin.com)', () => {
    expect(x.executives).toEqual([]);
    expect(x.documents).toEqual([]);
    expect(Object.values(x.links).flat()).toEqual([]);
  });
});

describe('synthetic pages (not fixtures): cues the fixtures do not show', () => {
  it('reads analysts under an "Analyst Coverage" heading', () => {
    const html = `<html><body><h2>Analyst Coverage</h2>
      <p>Jane Q. Roe, B. Riley Securities</p><p>Sidoti &amp; Company<br>John Smith</p>
      <p>Any opinions made by these analysts are theirs alone and do not represent the opinions of the company.</p></body></html>`;
    const x = extractIssuerPage(html, 'https://ir.example.com/', { cik: '0000000001', name: 'Example Inc.' });
    expect(x.analysts.map((a) => [a.name, a.affiliation, a.role])).toEqual([
      ['Jane Q. Roe', 'B. Riley Securities', 'Analyst'],
      ['John Smith', 'Sidoti & Company', 'Analyst'],
    ]);
    for (const a of x.analysts) expect(pageText(html)).toContain(a.quote);
  });

  it('groups the links under an event heading into one event, and takes a describing meta description', () => {
    const html = `<html><head><meta name="description" content="Example Inc. is a maker of widgets for the aerospace industry, based in Ohio."></head><body>
      <h3>Q3 2024 Earnings Call - November 5, 2024</h3>
      <ul><li><a href="/files/q3-release.pdf#page=1">Press Release</a></li><li><a href="https://events.example.com/q3.mp3">Webcast Replay</a></li></ul></body></html>`;
    const x = extractIssuerPage(html, 'https://ir.example.com/events', { cik: '0000000001', name: 'Example Inc.' });
    expect(x.description).toMatchObject({ source: 'meta', text: 'Example Inc. is a maker of widgets for the aerospace industry, based in Ohio.' });
    expect(x.documents.map((d) => [d.url, d.kind, d.event?.key])).toEqual([
      ['https://ir.example.com/files/q3-release.pdf', 'press_release', '0000000001|2024-11-05|q3 2024 earnings call november 5 2024'],
      ['https://events.example.com/q3.mp3', 'webcast', '0000000001|2024-11-05|q3 2024 earnings call november 5 2024'],
    ]);
  });

  it('reads executives printed as a name line followed by a role line under a "Leadership" heading', () => {
    const html = '<h2>Leadership</h2><h3>Mary Major</h3><p>Chief Financial Officer</p><h3>Rick Roe</h3><p>President and CEO</p>';
    const x = extractIssuerPage(html, 'https://ir.example.com/', { cik: '0000000001', name: 'Example Inc.' });
    expect(x.executives.map((e) => [e.name, e.role, e.quote])).toEqual([
      ['Rick Roe', 'President and CEO', 'Rick Roe\nPresident and CEO'],
      ['Mary Major', 'Chief Financial Officer', 'Mary Major\nChief Financial Officer'],
    ]);
  });

  it('survives a malformed percent escape in a document file name (the raw name is the title)', () => {
    const html = '<h2>Presentations</h2><ul><li><a href="/files/Q1%E0%A4%A_deck.pdf"></a></li></ul>';
    const x = extractIssuerPage(html, 'https://ir.example.com/', { cik: '0000000001', name: 'Example Inc.' });
    expect(x.documents.map((d) => [d.url, d.title])).toEqual([['https://ir.example.com/files/Q1%E0%A4%A_deck.pdf', 'Q1%E0%A4%A deck']]);
  });

  it('reads a page with a 200,000-character token (no "@") in linear time, and still finds the e-mail after it', () => {
    const html = `<h2>Investor Relations Contact</h2><p>${'a'.repeat(200_000)}</p><p>Jane Roe, Investor Relations</p><p>jane.roe@example.com</p>`;
    const x = extractIssuerPage(html, 'https://ir.example.com/', { cik: '0000000001', name: 'Example Inc.' });
    expect(x.irContacts.map((c) => c.email)).toEqual(['jane.roe@example.com']);
  });
});
