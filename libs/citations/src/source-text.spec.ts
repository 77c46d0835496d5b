import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractPdf } from '@app/decks';
import {
  extractSegments,
  parseCurrentEvents,
  parseDailyIndex,
  parseForm4,
  parseNport,
  parseRecentFilings,
  parseSubmissions,
  parseTickerMap,
  parseTickerMapExchange,
} from '@app/edgar';
import { extractIssuerPage, pageModel } from '@app/issuer-pages';
import { defaultFixturesDir } from '@app/testing';
import { alterOneCharacter } from './alter-quote';
import { detectSourceKind, quoteOccursIn, SourceText, type QuoteStyle, type SourceKind } from './source-text';

// Every quote here is made by the project's own parser or extractor from the real fixture file,
// the way ingestion made it; the verifier must find it, and must not find it with one character changed.

const fixture = (file: string): Buffer => readFileSync(join(defaultFixturesDir(), file));

async function expectQuote(bytes: Uint8Array, kind: SourceKind, quote: string | null | undefined, style: QuoteStyle, pageIndex: number | null = null): Promise<void> {
  expect(typeof quote).toBe('string');
  const q = quote!;
  expect(await new SourceText(bytes, kind).find(q)).toEqual({ style, pageIndex });
  expect(await quoteOccursIn(bytes, kind, q)).toBe(true);
  const altered = alterOneCharacter(q);
  expect(altered).toHaveLength(q.length);
  expect(altered).not.toBe(q);
  expect(await quoteOccursIn(bytes, kind, altered)).toBe(false);
}

describe('quoteOccursIn: EDGAR JSON (raw)', () => {
  it('a ticker-map row as written (company provenance without submissions)', async () => {
    const bytes = fixture('tickers/company_tickers_exchange.json');
    expect(detectSourceKind(bytes, 'sec')).toBe('json');
    const msft = parseTickerMapExchange(bytes).find((e) => e.ticker === 'MSFT')!;
    expect(msft.quote).toBe('[789019,"MICROSOFT CORP","MSFT","Nasdaq"]');
    await expectQuote(bytes, 'json', msft.quote, 'raw');
  });

  it("the plain ticker map's row, or the name's JSON string where the row is written differently", async () => {
    const bytes = fixture('tickers/company_tickers.json');
    const tsla = parseTickerMap(bytes).find((e) => e.ticker === 'TSLA')!;
    await expectQuote(bytes, 'json', tsla.quote, 'raw');
  });

  it('the submissions "name" member (company provenance) and an accession JSON string (filing provenance)', async () => {
    const bytes = fixture('submissions/CIK0000789019.json');
    expect(detectSourceKind(bytes, 'sec')).toBe('json');
    await expectQuote(bytes, 'json', parseSubmissions(bytes).nameQuote, 'raw');
    const filing = parseRecentFilings(bytes).find((f) => f.form === '10-K')!;
    await expectQuote(bytes, 'json', JSON.stringify(filing.accessionNumber), 'raw');
  });
});

describe('quoteOccursIn: EDGAR text and HTML listings (raw lines)', () => {
  it('a daily-index line (filing provenance from the daily index)', async () => {
    const bytes = fixture('feeds/form.20200318.idx');
    expect(detectSourceKind(bytes, 'sec')).toBe('text');
    const entries = parseDailyIndex(bytes).entries;
    await expectQuote(bytes, 'text', entries[0]!.line, 'raw');
    await expectQuote(bytes, 'text', entries[entries.length - 1]!.line, 'raw');
  });

  it('a current-events HTML line (filing provenance from the current-events listing)', async () => {
    const bytes = fixture('feeds/current-1eb469.html');
    expect(detectSourceKind(bytes, 'sec')).toBe('sec_html');
    const { entries } = parseCurrentEvents(bytes);
    for (const e of [entries[0]!, entries[entries.length - 1]!]) await expectQuote(bytes, 'sec_html', e.line, 'raw');
  });
});

describe('quoteOccursIn: inline XBRL (segment table rows, whitespace normalized)', () => {
  it.each([
    ['xbrl/AAPL-aapl-20250329.htm'],
    ['xbrl/TSLA-tsla-10-q-2025-07-24.html'],
  ])('every segment quote of %s', async (file) => {
    const bytes = fixture(file);
    expect(detectSourceKind(bytes, 'sec')).toBe('sec_html');
    const quotes = [...new Set(extractSegments(bytes).facts.map((f) => f.quote))];
    expect(quotes.length).toBeGreaterThan(3);
    const text = new SourceText(bytes, 'sec_html');
    for (const quote of quotes) {
      expect(await text.find(quote)).not.toBeNull();
      expect(await text.find(alterOneCharacter(quote))).toBeNull();
    }
    // A row's text is not in the markup as written: it is found in the DOM text.
    expect(await text.find(quotes[0]!)).toEqual({ style: 'ixbrl_text', pageIndex: null });
  });
});

describe('quoteOccursIn: EDGAR XML', () => {
  it("an N-PORT holding's <name> element as written (fund exposure provenance)", async () => {
    const bytes = fixture('nport/ADX-CIK0000002230-primary_doc.xml');
    expect(detectSourceKind(bytes, 'sec')).toBe('xml');
    const { holdings } = parseNport(bytes);
    const msft = holdings.find((h) => h.cusip === '594918104')!;
    await expectQuote(bytes, 'xml', msft.quote, 'raw');
  });

  it("a Form 4 row's XML as written (insider transaction provenance), bare XML and complete submission .txt", async () => {
    const tsla = fixture('form4/TSLA-0000899243-21-044060-doc4.xml');
    await expectQuote(tsla, 'xml', parseForm4(tsla).rows[3]!.quote, 'raw');
    const dkng = fixture('form4/DKNG-0001104659-25-025206.txt');
    expect(detectSourceKind(dkng, 'sec')).toBe('xml');
    await expectQuote(dkng, 'xml', parseForm4(dkng).rows[0]!.quote, 'raw');
  });

  it('Form 4 values as the parser decoded them (SEC roster entries: the officer title, else the name as filed)', async () => {
    const snow = fixture('form4/SNOW-form4.snow.xml');
    expect(detectSourceKind(snow, 'sec')).toBe('xml');
    const owner = parseForm4(snow, { accession: '0001640147-22-990001' }).reportingOwners[0]!;
    await expectQuote(snow, 'xml', owner.officerTitle, 'raw');
    await expectQuote(snow, 'xml', owner.name, 'raw');
    // No fixture owner or title holds an entity; an N-PORT name does ("Procter &amp; Gamble Company"),
    // decoded by the same decodeXml: only its decoded text is the value, and it is found as such.
    const adx = fixture('nport/ADX-CIK0000002230-primary_doc.xml');
    const pg = parseNport(adx).holdings.find((h) => h.name?.startsWith('Procter'))!.name!;
    expect(pg).toBe('Procter & Gamble Company');
    await expectQuote(adx, 'xml', pg, 'xml_text');
    expect(await new SourceText(adx, 'text').find(pg)).toBeNull();
  });
});

describe('quoteOccursIn: issuer IR pages (visible text as libs/issuer-pages reads it)', () => {
  const frph = { cik: '0000844059', name: 'FRP Holdings, Inc.', ticker: 'FRPH' };

  it('roster quotes of several lines, executives and the description (executives, IR contacts, description provenance)', async () => {
    const contact = fixture('ir-pages/FRPH-contactus.html');
    expect(detectSourceKind(contact, 'issuer_page')).toBe('issuer_html');
    const [attention] = extractIssuerPage(contact, 'https://www.frpholdings.com/contactus.html', frph).irContacts;
    expect(attention!.quote.split('\n').length).toBeGreaterThan(2);
    await expectQuote(contact, 'issuer_html', attention!.quote, 'page_text');

    const team = fixture('ir-pages/FRPH-executive-team.html');
    const page = extractIssuerPage(team, 'https://www.frpholdings.com/executive-team.html', frph);
    for (const e of page.executives) await expectQuote(team, 'issuer_html', e.quote, 'page_text');
    await expectQuote(team, 'issuer_html', page.description!.quote, 'page_text');
    // Page text is not the markup: the raw bytes do not count for an issuer page.
    expect(await quoteOccursIn(team, 'issuer_html', '<title>')).toBe(false);
  });

  it('document link lines (document provenance before the PDF is read) and an IR agency contact', async () => {
    const ir = fixture('ir-pages/FRPH-investor-relations.html');
    const docs = extractIssuerPage(ir, 'https://www.frpholdings.com/investor-relations.html', frph).documents;
    expect(docs.length).toBeGreaterThan(5);
    for (const d of docs) await expectQuote(ir, 'issuer_html', d.quote, 'page_text');
    const brai = fixture('ir-pages/BRAI-investors.html');
    const [contact] = extractIssuerPage(brai, 'https://braiin.com/investors', { cik: '0001', name: 'Braiin Limited', ticker: 'BRAI' }).irContacts;
    await expectQuote(brai, 'issuer_html', contact!.quote, 'page_text');
  });

  it('a meta description is quoted whole (the description extractor takes it when it describes the company)', async () => {
    const brai = fixture('ir-pages/BRAI-investors.html');
    const meta = pageModel(brai, 'https://braiin.com/investors').metaDescription!;
    await expectQuote(brai, 'issuer_html', meta, 'page_meta');
    expect(await quoteOccursIn(brai, 'issuer_html', meta.slice(0, -1))).toBe(false);
  });
});

describe('quoteOccursIn: PDF text as libs/decks extracts it (document and page provenance)', () => {
  it("each page's first line, on its own page", async () => {
    const bytes = fixture('decks/FRPH-Annual_Meeting_-_2015_FINAL2.pdf');
    expect(detectSourceKind(bytes, 'issuer_page')).toBe('pdf');
    expect(detectSourceKind(bytes, 'sec')).toBe('pdf');
    const pdf = await extractPdf(bytes);
    const text = new SourceText(bytes, 'pdf');
    const firstLines = pdf.pages.map((p) => (p.text ? p.text.split('\n', 1)[0]! : null));
    const first = firstLines.findIndex((l) => l !== null);
    expect(await text.find(firstLines[first]!)).toEqual({ style: 'pdf_text', pageIndex: first });
    for (const [i, line] of firstLines.entries()) {
      if (line === null) continue;
      expect(await text.find(line, { pageIndex: i })).toEqual({ style: 'pdf_text', pageIndex: i });
      expect(await text.find(alterOneCharacter(line), { pageIndex: i })).toBeNull();
    }
    // Named on the wrong page, a line found only elsewhere is not found.
    const unique = firstLines.findIndex((l, i) => l !== null && pdf.pages.every((p, j) => j === i || !p.text.includes(l)));
    expect(await text.find(firstLines[unique]!, { pageIndex: unique === 0 ? 1 : 0 })).toBeNull();
  });
});

describe('quoteOccursIn: quotes of whole lines are matched as whole lines', () => {
  it("a slide's short first line is not found inside a longer line, nor is part of a line", async () => {
    const bytes = fixture('decks/FRPH-1_CURRENT_12_JAN_2015_FRP_Holdings_Inc_Presentation_Pre-Spin-Off.pdf');
    const page = (await extractPdf(bytes)).pages[30]!.text;
    const [first, , third] = page.split('\n');
    expect(first).toBe('4');
    expect(page).toContain('9');
    const text = new SourceText(bytes, 'pdf');
    expect(await text.find('4', { pageIndex: 30 })).toEqual({ style: 'pdf_text', pageIndex: 30 });
    expect(await text.find(alterOneCharacter('4'), { pageIndex: 30 })).toBeNull();
    expect(await text.find(third!.slice(0, -3), { pageIndex: 30 })).toBeNull();
    const team = fixture('ir-pages/FRPH-executive-team.html');
    const [ceo] = extractIssuerPage(team, 'https://www.frpholdings.com/executive-team.html', { cik: '0000844059', name: 'FRP Holdings, Inc.' }).executives;
    expect(await quoteOccursIn(team, 'issuer_html', ceo!.quote.slice(0, -1))).toBe(false);
  });
});

describe('quoteOccursIn: nothing is not a quote', () => {
  it('an empty or blank quote is found nowhere', async () => {
    const xml = fixture('form4/SNOW-form4.snow.xml');
    const html = fixture('xbrl/AAPL-aapl-20250329.htm');
    for (const q of ['', ' ', '\n\t ']) {
      expect(await quoteOccursIn(xml, 'xml', q)).toBe(false);
      expect(await quoteOccursIn(html, 'sec_html', q)).toBe(false);
    }
  });
});

describe('detectSourceKind', () => {
  it('tells the fixture files apart', () => {
    expect(detectSourceKind(fixture('xbrl/TSLA-tsla-20240630_htm.xml'), 'sec')).toBe('xml');
    expect(detectSourceKind(fixture('feeds/0001562180-17-002633-index.htm'), 'sec')).toBe('sec_html');
    expect(detectSourceKind(fixture('submissions/CIK0000717423.json'), 'sec')).toBe('json');
    expect(detectSourceKind(fixture('ir-pages/FRPH-frppresent.html'), 'issuer_page')).toBe('issuer_html');
  });
});

describe('alterOneCharacter', () => {
  it('changes exactly one non-space character, keeping its class', () => {
    for (const q of ['"0000950170-25-100235"', 'Annual Shareholder Meeting', 'Jane Roe\njane@example.com', 'a', '  x  ']) {
      const a = alterOneCharacter(q);
      expect(a).toHaveLength(q.length);
      expect([...a].filter((c, i) => c !== q[i])).toHaveLength(1);
    }
    expect(alterOneCharacter('"0000950170-25-100235"')).toMatch(/^"\d{10}-\d{2}-\d{6}"$/);
  });
});
