import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { EdgarParseError } from '../edgar.parse-error';
import { FORM4_TRANSACTION_CODES, classifyTransactionCode } from './form4.codes';
import { mentionsRule10b5_1Plan, parseForm4 } from './form4.parser';
import type { Form4Document, Form4Row } from './form4.types';

// Every value asserted below was read from the fixture files by eye (line numbers in comments).
const DIR = join(defaultFixturesDir(), 'form4');
const FILES = readdirSync(DIR).sort();
const bytesOf = (prefix: string): Buffer => {
  const file = FILES.find((f) => f.startsWith(prefix));
  if (!file) throw new Error(`no fixture ${prefix}*`);
  return readFileSync(join(DIR, file));
};
const parse = (prefix: string): Form4Document => parseForm4(bytesOf(prefix));
const transactions = (doc: Form4Document, table: Form4Row['table']) => doc.rows.filter((r) => r.table === table && r.kind === 'transaction');
const holdings = (doc: Form4Document, table: Form4Row['table']) => doc.rows.filter((r) => r.table === table && r.kind === 'holding');
const sum = (values: Array<number | null | undefined>) => values.reduce<number>((s, v) => s + (v ?? 0), 0);

const ROW_ELEMENT: Record<string, string> = {
  'non_derivative/transaction': 'nonDerivativeTransaction',
  'non_derivative/holding': 'nonDerivativeHolding',
  'derivative/transaction': 'derivativeTransaction',
  'derivative/holding': 'derivativeHolding',
};

describe('parseForm4 on every fixture in form4/', () => {
  it('covers the nine stored files', () => {
    expect(FILES).toHaveLength(9);
  });

  // file prefix, issuer cik, symbol, owners, rows per table and kind (ndT, ndH, dT, dH), footnotes, aff10b5One, schema, period, signatures
  const summary: Array<[string, string, string, number, [number, number, number, number], number, boolean | null, string, string, number]> = [
    ['BETR', '0001835856', 'BETR', 8, [1, 0, 1, 0], 3, false, 'X0508', '2024-12-09', 8],
    ['DKNG', '0001883685', 'DKNG', 1, [3, 0, 0, 0], 3, true, 'X0508', '2025-03-14', 1],
    ['GUTS', '0001572616', 'GUTS', 6, [3, 0, 5, 0], 3, false, 'X0508', '2024-02-06', 6],
    ['MSFT', '0000789019', 'MSFT', 1, [0, 1, 1, 0], 3, false, 'X0508', '2024-09-12', 1],
    ['PLTR', '0001321655', 'PLTR', 1, [4, 3, 0, 0], 10, true, 'X0508', '2024-09-24', 1],
    ['SCWO', '0000933972', 'SCWO', 1, [1, 0, 1, 0], 1, false, 'X0508', '2025-04-30', 1],
    ['SNOW', '0001640147', 'SNOW', 1, [6, 8, 1, 0], 16, null, 'X0306', '2022-12-13', 1],
    ['SQ-', '0001512673', 'SQ', 1, [4, 8, 0, 0], 7, false, 'X0508', '2023-11-08', 1],
    ['TSLA', '0001318605', 'TSLA', 1, [30, 0, 1, 0], 27, null, 'X0306', '2021-11-08', 1],
  ];

  it('has a summary line for every file', () => {
    expect(summary.map(([prefix]) => FILES.filter((f) => f.startsWith(prefix)).length)).toEqual(FILES.map(() => 1));
  });

  describe.each(summary)('%s', (prefix, cik, symbol, owners, [ndT, ndH, dT, dH], footnotes, aff, schema, period, signatures) => {
    const bytes = bytesOf(prefix);
    const text = bytes.toString('utf8');
    const doc = parseForm4(bytes);

    it('reads the header fields, issuer, owners, footnotes and signatures', () => {
      expect(doc.documentType).toBe('4');
      expect(doc.isAmendment).toBe(false);
      expect(doc.dateOfOriginalSubmission).toBeNull();
      expect(doc.schemaVersion).toBe(schema);
      expect(doc.periodOfReport).toBe(period);
      expect(doc.issuer.cik).toBe(cik);
      expect(doc.issuer.tradingSymbol).toBe(symbol);
      expect(doc.reportingOwners).toHaveLength(owners);
      for (const owner of doc.reportingOwners) expect(owner.cik).toMatch(/^\d{10}$/);
      expect(doc.footnotes).toHaveLength(footnotes);
      expect(doc.aff10b5One).toBe(aff);
      expect(doc.ownerSignatures).toHaveLength(signatures);
    });

    it('reads every row, one per element, in document order', () => {
      expect([transactions(doc, 'non_derivative'), holdings(doc, 'non_derivative'), transactions(doc, 'derivative'), holdings(doc, 'derivative')].map((r) => r.length)).toEqual([
        ndT,
        ndH,
        dT,
        dH,
      ]);
      // One row per row element of the file.
      for (const element of Object.values(ROW_ELEMENT)) {
        expect(doc.rows.filter((r) => ROW_ELEMENT[`${r.table}/${r.kind}`] === element)).toHaveLength(text.split(`<${element}>`).length - 1);
      }
      // sequence counts the rows of each table, transactions and holdings together, from 0.
      for (const table of ['non_derivative', 'derivative'] as const) {
        const rows = doc.rows.filter((r) => r.table === table);
        expect(rows.map((r) => r.sequence)).toEqual([...Array(rows.length).keys()]);
      }
    });

    it("quotes each row's element verbatim from the file, in file order", () => {
      let from = 0;
      for (const row of doc.rows) {
        const element = ROW_ELEMENT[`${row.table}/${row.kind}`];
        expect(row.quote.startsWith(`<${element}>`)).toBe(true);
        expect(row.quote.endsWith(`</${element}>`)).toBe(true);
        const at = text.indexOf(row.quote, from);
        expect(at).toBeGreaterThanOrEqual(from);
        expect(bytes.includes(Buffer.from(row.quote, 'utf8'))).toBe(true);
        from = at + row.quote.length;
      }
    });

    it('classifies every transaction code from the SEC table and gives holdings none', () => {
      for (const row of doc.rows) {
        if (row.kind === 'holding') {
          expect(row.transactionCodeInfo).toBeNull();
          expect(row.is10b5_1).toBe(false);
        } else {
          expect(row.transactionCodeInfo).toBe(FORM4_TRANSACTION_CODES[row.transactionCode ?? '']);
        }
      }
    });

    it('cites only footnotes the document has', () => {
      const ids = new Set(doc.footnotes.map((f) => f.id));
      for (const row of doc.rows) for (const cited of Object.values(row.footnoteIds)) for (const id of cited) expect(ids.has(id)).toBe(true);
    });

    it('parses the same from a string as from a Buffer', () => {
      expect(parseForm4(text)).toEqual(doc);
    });
  });
});

describe('TSLA (Musk, 2021-11-08): 1 exercise + 29 sales, 10b5-1 stated in footnote F1 only', () => {
  const doc = parse('TSLA');
  const nd = transactions(doc, 'non_derivative');

  it('reads the owner with all three relationships', () => {
    expect(doc.reportingOwners).toEqual([
      {
        cik: '0001494730',
        name: 'Musk Elon',
        address: { street1: 'C/O TESLA, INC.', street2: '3500 DEER CREEK ROAD', city: 'PALO ALTO', state: 'CA', zipCode: '94304', stateDescription: null },
        isDirector: true,
        isOfficer: true,
        officerTitle: 'CEO',
        isTenPercentOwner: true,
        isOther: false,
        otherText: null,
      },
    ]);
    expect(doc.issuer).toEqual({ cik: '0001318605', name: 'Tesla, Inc.', tradingSymbol: 'TSLA' });
    expect(doc.notSubjectToSection16).toBe(false);
    expect(doc.ownerSignatures).toEqual([{ name: 'By: Aaron Beckman by Power of Attorney For: Elon Musk', date: '2021-11-10' }]);
    expect(doc.remarks).toMatch(/^This Form 4 is the first of two Form 4s .* maximum of 30 separate transactions\./);
  });

  it('reads the 30 non-derivative transactions, each tranche on its own row', () => {
    expect(nd).toHaveLength(30);
    expect(nd.map((r) => r.transactionCode)).toEqual(['M', ...Array<string>(29).fill('S')]);
    // Lines 41-79: the exercise.
    expect(nd[0]).toMatchObject({
      sequence: 0,
      securityTitle: 'Common Stock',
      transactionDate: '2021-11-08',
      deemedExecutionDate: null,
      transactionFormType: '4',
      transactionCode: 'M',
      equitySwapInvolved: false,
      transactionTimeliness: null,
      shares: { text: '2154572', value: 2154572 },
      pricePerShare: { text: '6.24', value: 6.24 },
      acquiredDisposed: 'A',
      sharesOwnedFollowing: { text: '2154572', value: 2154572 },
      directOrIndirect: 'D',
      natureOfOwnership: null,
      footnoteIds: { transactionCoding: ['F1'] },
    });
    expect(nd[0]?.transactionCodeInfo).toEqual({ code: 'M', label: 'Exercise or conversion of derivative security exempted pursuant to Rule 16b-3', classification: 'exercise', is_open_market: false });
    // Lines 80-119: the first sale, 1,100 sh at $1,135.05.
    expect(nd[1]).toMatchObject({
      sequence: 1,
      transactionCode: 'S',
      shares: { text: '1100', value: 1100 },
      pricePerShare: { text: '1135.05', value: 1135.05 },
      acquiredDisposed: 'D',
      sharesOwnedFollowing: { value: 2153472 },
      footnoteIds: { transactionCoding: ['F1'], transactionShares: ['F2'] },
    });
    expect(nd[1]?.transactionCodeInfo?.classification).toBe('open_market_sale');
    expect(nd[1]?.transactionCodeInfo?.is_open_market).toBe(true);
    expect(nd[3]).toMatchObject({
      shares: { value: 2300 },
      pricePerShare: { text: '1139.487', value: 1139.487 },
      footnoteIds: { transactionCoding: ['F1'], transactionShares: ['F2'], transactionPricePerShare: ['F3'] },
    });
    expect(nd[18]).toMatchObject({ shares: { value: 24718 }, pricePerShare: { value: 1163.655 }, sharesOwnedFollowing: { value: 2071135 } });
    // Lines 1220-1262: the last sale.
    expect(nd[29]).toMatchObject({
      sequence: 29,
      shares: { text: '6020', value: 6020 },
      pricePerShare: { text: '1175.654', value: 1175.654 },
      sharesOwnedFollowing: { text: '1897293', value: 1897293 },
      footnoteIds: { transactionCoding: ['F1'], transactionShares: ['F2'], transactionPricePerShare: ['F25'] },
    });
  });

  it('adds up: the 29 sales total 257,279 shares, leaving 2,154,572 - 257,279 = 1,897,293', () => {
    const sales = nd.filter((r) => r.transactionCode === 'S');
    expect(sum(sales.map((r) => r.shares?.value))).toBe(257279);
    expect(sum(nd.map((r) => r.shares?.value))).toBe(2411851);
    expect(2154572 - 257279).toBe(nd[29]?.sharesOwnedFollowing?.value);
    // Weighted-average price footnotes F3..F25 are each cited by exactly one price.
    expect(nd.flatMap((r) => r.footnoteIds.transactionPricePerShare ?? [])).toEqual(Array.from({ length: 23 }, (_, i) => `F${i + 3}`));
  });

  it('reads the option exercise in the derivative table', () => {
    expect(transactions(doc, 'derivative')).toEqual([
      expect.objectContaining({
        table: 'derivative',
        kind: 'transaction',
        sequence: 0,
        securityTitle: 'Non-Qualifed Stock Option (right to buy)',
        conversionOrExercisePrice: { text: '6.24', value: 6.24 },
        transactionCode: 'M',
        shares: { text: '2154572', value: 2154572 },
        pricePerShare: { text: '0.00', value: 0 },
        acquiredDisposed: 'D',
        exerciseDate: null,
        expirationDate: '2022-08-13',
        underlyingSecurityTitle: 'Common Stock',
        underlyingSecurityShares: { text: '2154572', value: 2154572 },
        sharesOwnedFollowing: { text: '23344933', value: 23344933 },
        directOrIndirect: 'D',
        footnoteIds: { transactionCoding: ['F1'], exerciseDate: ['F26', 'F27'] },
      }),
    ]);
  });

  it('has no aff10b5One (pre-2023 schema) and takes 10b5-1 from footnote F1, cited by every transaction', () => {
    expect(doc.aff10b5One).toBeNull();
    expect(doc.footnotes[0]?.text).toMatch(/^THE TRANSACTIONS REPORTED ON THIS FORM 4 WERE AUTOMATICALLY EFFECTED PURSUANT TO A RULE 10B5-1 TRADING PLAN/);
    expect(doc.rule10b5_1FootnoteIds).toEqual(['F1']);
    for (const row of doc.rows) {
      expect(row).toMatchObject({ is10b5_1: true, is10b5_1Reason: 'footnote', is10b5_1FootnoteIds: ['F1'] });
    }
  });
});

describe('GUTS (Fractyl Health IPO): five Mithril entities and Peter Thiel, true/false booleans', () => {
  const doc = parse('GUTS');

  it('reads the six reporting owners in order, all 10% owners', () => {
    expect(doc.reportingOwners.map((o) => [o.cik, o.name])).toEqual([
      ['0001552273', 'Mithril LP'],
      ['0001878230', 'Mithril II UGP LLC'],
      ['0001878232', 'Mithril II GP LP'],
      ['0001669609', 'MITHRIL II LP'],
      ['0001881891', 'Mithril GP LP'],
      ['0001211060', 'THIEL PETER'],
    ]);
    for (const owner of doc.reportingOwners) {
      expect(owner).toMatchObject({ isDirector: false, isOfficer: false, isTenPercentOwner: true, isOther: false });
      expect(owner.address).toEqual({
        street1: 'C/O MITHRIL CAPITAL MANAGEMENT LLC',
        street2: '111 CONGRESS AVENUE, SUITE 500',
        city: 'AUSTIN',
        state: 'TX',
        zipCode: '78701',
        stateDescription: null,
      });
    }
  });

  it('shares Peter Thiel (CIK 0001211060) with the PLTR filing', () => {
    const pltr = parse('PLTR');
    expect(pltr.reportingOwners.map((o) => o.cik)).toEqual(['0001211060']);
    expect(doc.reportingOwners.some((o) => o.cik === pltr.reportingOwners[0]?.cik && o.name === pltr.reportingOwners[0]?.name)).toBe(true);
  });

  it('reads false from aff10b5One and equitySwapInvolved written as words', () => {
    expect(doc.aff10b5One).toBe(false);
    for (const row of doc.rows) expect(row.equitySwapInvolved).toBe(false);
    expect(doc.rows.every((r) => !r.is10b5_1 && r.is10b5_1Reason === null)).toBe(true);
  });

  it('reads the conversions and the IPO purchase', () => {
    expect(transactions(doc, 'non_derivative').map((r) => [r.transactionCode, r.shares?.value, r.pricePerShare, r.sharesOwnedFollowing?.value, r.directOrIndirect])).toEqual([
      ['C', 5160301, null, 5160301, 'D'],
      ['C', 918567, null, 918567, 'I'],
      ['P', 333333, { text: '15.00', value: 15 }, 1251900, 'I'],
    ]);
    expect(doc.rows[0]?.footnoteIds).toEqual({ transactionPricePerShare: ['F1'], directOrIndirectOwnership: ['F2'] });
    expect(doc.rows[2]?.footnoteIds).toEqual({ natureOfOwnership: ['F3'] });
    expect(doc.rows[2]?.natureOfOwnership).toBe('See footnote');
    expect(doc.rows[2]?.transactionCodeInfo?.classification).toBe('open_market_purchase');
    expect(transactions(doc, 'derivative').map((r) => [r.sequence, r.securityTitle, r.shares?.value, r.underlyingSecurityShares?.value, r.acquiredDisposed])).toEqual([
      [0, 'Series C-1 Preferred Stock', 4025764, 1875938, 'D'],
      [1, 'Series C-2 Preferred Stock', 6502796, 3030193, 'D'],
      [2, 'Series D Preferred Stock', 545450, 254170, 'D'],
      [3, 'Series E Preferred Stock', 373021, 173821, 'D'],
      [4, 'Series F Preferred Stock', 1598225, 744746, 'D'],
    ]);
    expect(transactions(doc, 'derivative').every((r) => r.transactionCodeInfo?.classification === 'conversion')).toBe(true);
  });

  it('decodes entities in footnote text', () => {
    expect(doc.footnotes[1]?.text).toMatch(/^Represents securities held by Mithril LP \("LP"\)\. Mithril GP LP \("GP LP"\)/);
  });
});

describe("EDGAR's dissemination-feed wrapper (<SUBMISSION> header, the ownership XML inside)", () => {
  // No feed file (.nc) is stored as a fixture: the wrapper is built around the real MSFT form4.xml
  // bytes the way EDGAR's feed carries a filing (tag-per-line header, then <DOCUMENT><TEXT><XML>);
  // the header values are the filing's own (accession, form, period, filing date).
  const xml = bytesOf('MSFT').toString('utf8');
  const feed =
    '<SUBMISSION>\n<ACCESSION-NUMBER>0001062993-24-016587\n<TYPE>4\n<PUBLIC-DOCUMENT-COUNT>1\n<PERIOD>20240912\n<FILING-DATE>20240913\n' +
    '<DATE-OF-FILING-DATE-CHANGE>20240913\n<REPORTING-OWNER>\n<OWNER-DATA>\n<CONFORMED-NAME>Hoffman Reid\n</OWNER-DATA>\n</REPORTING-OWNER>\n' +
    '<ISSUER>\n<COMPANY-DATA>\n<CONFORMED-NAME>MICROSOFT CORP\n<CIK>0000789019\n</COMPANY-DATA>\n</ISSUER>\n' +
    `<DOCUMENT>\n<TYPE>4\n<SEQUENCE>1\n<FILENAME>form4.xml\n<TEXT>\n<XML>\n${xml}\n</XML>\n</TEXT>\n</DOCUMENT>\n</SUBMISSION>\n`;

  it('is parsed like the .txt submission: the same document as the bare XML, the accession from the header', () => {
    const bare = parseForm4(xml);
    const wrapped = parseForm4(feed);
    expect(wrapped.accession).toBe('0001062993-24-016587');
    expect(wrapped.accessionSource).toBe('sgml_header');
    expect(wrapped.submissionHeader).toEqual({ accession: '0001062993-24-016587', submissionType: '4', filedAsOfDate: '2024-09-13', acceptanceDateTime: null });
    expect({ ...wrapped, accession: null, accessionSource: null, submissionHeader: null }).toEqual(bare);
    // Row quotes are the XML as written, so they stand in the feed file too.
    for (const row of wrapped.rows) expect(feed).toContain(row.quote);
  });
});

describe('complete-submission .txt files (SGML header + <XML>)', () => {
  it('BETR: accession from the header, eight SoftBank-group owners', () => {
    const doc = parse('BETR');
    expect(doc.accession).toBe('0001493152-25-009612');
    expect(doc.accessionSource).toBe('sgml_header');
    expect(doc.submissionHeader).toEqual({ accession: '0001493152-25-009612', submissionType: '4', filedAsOfDate: '2025-03-07', acceptanceDateTime: '20250307210008' });
    expect(doc.issuer).toEqual({ cik: '0001835856', name: 'Better Home & Finance Holding Co', tradingSymbol: 'BETR' });
    expect(doc.reportingOwners.map((o) => [o.cik, o.name])).toEqual([
      ['0001065521', 'SOFTBANK GROUP CORP.'],
      ['0001883884', 'SB Global Advisers Ltd'],
      ['0001787613', 'SOFTBANK VISION FUND II-2 L.P.'],
      ['0001883559', 'SVF II Aggregator (Jersey) L.P.'],
      ['0001883900', 'SVF II Holdings (DE) LLC'],
      ['0001990707', 'SVF II Beaver (DE) LLC'],
      ['0001991269', 'Silver Brick Management PTE. LTD.'],
      ['0001818296', 'SB Management Ltd'],
    ]);
    expect(doc.reportingOwners.every((o) => o.isTenPercentOwner && !o.isDirector && !o.isOfficer && o.officerTitle === null)).toBe(true);
    expect(doc.reportingOwners[0]?.address).toEqual({ street1: '1-7-1, KAIGAN', street2: null, city: 'MINATO-KU TOKYO', state: 'M0', zipCode: '105-7537', stateDescription: 'JAPAN' });
    expect(doc.rows.map((r) => [r.table, r.sequence, r.transactionCode, r.shares?.value, r.acquiredDisposed])).toEqual([
      ['non_derivative', 0, 'C', 628553, 'A'],
      ['derivative', 0, 'C', 628553, 'D'],
    ]);
    expect(doc.rows[0]?.footnoteIds).toEqual({ transactionShares: ['F1'], transactionPricePerShare: ['F2'], sharesOwnedFollowingTransaction: ['F1'], natureOfOwnership: ['F3'] });
    expect(doc.rows[0]?.pricePerShare).toBeNull();
    expect(doc.rows[1]).toMatchObject({
      securityTitle: 'Class B Common Stock',
      conversionOrExercisePrice: null,
      underlyingSecurityTitle: 'Class A Common Stock',
      sharesOwnedFollowing: { value: 137545 },
      natureOfOwnership: 'By SVF II Beaver (DE) LLC',
      footnoteIds: {
        conversionOrExercisePrice: ['F2'],
        transactionShares: ['F1'],
        exerciseDate: ['F2'],
        expirationDate: ['F2'],
        underlyingSecurityShares: ['F1'],
        sharesOwnedFollowingTransaction: ['F1'],
        natureOfOwnership: ['F3'],
      },
    });
    expect(doc.ownerSignatures[7]).toEqual({ name: 'SB Northstar LP By : /s/ Stephen Lam, Director', date: '2025-03-07' });
  });

  it('DKNG: accession from the header, aff10b5One=1 on three sales', () => {
    const doc = parse('DKNG');
    expect(doc.accession).toBe('0001104659-25-025206');
    expect(doc.submissionHeader?.filedAsOfDate).toBe('2025-03-18');
    expect(doc.reportingOwners[0]).toMatchObject({ cik: '0001404430', name: 'Dodge R Stanton', isOfficer: true, officerTitle: 'Chief Legal Officer', otherText: null });
    expect(doc.aff10b5One).toBe(true);
    expect(doc.rows.map((r) => [r.transactionCode, r.shares?.value, r.pricePerShare?.text, r.footnoteIds.transactionPricePerShare ?? []])).toEqual([
      ['S', 49252, '37.59', ['F2']],
      ['S', 3525, '38.05', ['F3']],
      ['S', 52777, '39', []],
    ]);
    expect(doc.rows[2]?.sharesOwnedFollowing?.value).toBe(653843);
    for (const row of doc.rows) expect(row).toMatchObject({ is10b5_1: true, is10b5_1Reason: 'flag', is10b5_1FootnoteIds: ['F1'], footnoteIds: { transactionCoding: ['F1'] } });
  });

  it('prefers the header accession over the context one and keeps the url', () => {
    const doc = parseForm4(bytesOf('DKNG'), { url: 'https://www.sec.gov/Archives/edgar/data/1883685/000110465925025206/0001104659-25-025206.txt', accession: '0000000000-00-000000' });
    expect(doc.accession).toBe('0001104659-25-025206');
    expect(doc.accessionSource).toBe('sgml_header');
    expect(doc.url).toBe('https://www.sec.gov/Archives/edgar/data/1883685/000110465925025206/0001104659-25-025206.txt');
  });
});

describe('bare XML files', () => {
  it('take the accession from the context (dashed from 18 digits), else null', () => {
    expect(parse('MSFT')).toMatchObject({ accession: null, accessionSource: null, submissionHeader: null });
    expect(parseForm4(bytesOf('MSFT'), { accession: '000106299324016587' })).toMatchObject({ accession: '0001062993-24-016587', accessionSource: 'context' });
  });

  it('PLTR: aff10b5One=1, four sales then three holdings in one sequence, remarks', () => {
    const doc = parse('PLTR');
    expect(doc.aff10b5One).toBe(true);
    expect(doc.notSubjectToSection16).toBe(false);
    expect(doc.rows.map((r) => [r.kind, r.sequence, r.transactionCode, r.shares?.value ?? null, r.pricePerShare?.value ?? null, r.sharesOwnedFollowing?.value])).toEqual([
      ['transaction', 0, 'S', 7214637, 36.8567, 55636551],
      ['transaction', 1, 'S', 147610, 37.6466, 55488941],
      ['transaction', 2, 'S', 4254666, 36.7702, 51234275],
      ['transaction', 3, 'S', 4561502, 37.0694, 46672773],
      ['holding', 4, null, null, null, 15733625],
      ['holding', 5, null, null, null, 20823993],
      ['holding', 6, null, null, null, 53487],
    ]);
    expect(doc.rows.slice(0, 4).every((r) => r.is10b5_1 && r.is10b5_1Reason === 'flag')).toBe(true);
    expect(doc.rows[4]?.footnoteIds).toEqual({ sharesOwnedFollowingTransaction: ['F7'], natureOfOwnership: ['F8'] });
    expect(doc.rule10b5_1FootnoteIds).toEqual(['F1']);
    expect(doc.remarks).toMatch(/^This Form 4 has been compiled .*"Security Ownership Of Certain Beneficial Owners And Management,"/);
  });

  it('SNOW: no XML declaration, values kept as written, footnote whitespace collapsed, empty remarks', () => {
    const bytes = bytesOf('SNOW');
    expect(bytes.subarray(0, 19).toString()).toBe('<ownershipDocument>');
    const doc = parseForm4(bytes);
    expect(doc.reportingOwners[0]).toMatchObject({ cik: '0001402349', name: 'Scarpelli Michael', isOfficer: true, officerTitle: 'Chief Financial Officer', otherText: null });
    expect(doc.rows[0]).toMatchObject({ transactionCode: 'M', shares: { value: 200000 }, pricePerShare: { text: '8.88' }, footnoteIds: { sharesOwnedFollowingTransaction: ['F1'] } });
    expect(doc.rows[1]).toMatchObject({ transactionCode: 'S', shares: { value: 73170 }, pricePerShare: { value: 150.841 }, footnoteIds: { transactionCoding: ['F2'], transactionPricePerShare: ['F3'] } });
    expect(doc.rows[6]).toMatchObject({ kind: 'holding', sequence: 6, sharesOwnedFollowing: { value: 577218 }, natureOfOwnership: 'Trust', footnoteIds: { natureOfOwnership: ['F8'] } });
    expect(transactions(doc, 'derivative')[0]).toMatchObject({
      conversionOrExercisePrice: { text: '8.88', value: 8.88 },
      expirationDate: '2029-08-26',
      underlyingSecurityShares: { text: '200000.0', value: 200000 },
      sharesOwnedFollowing: { value: 2219299 },
    });
    expect(doc.footnotes[0]).toEqual({ id: 'F1', text: 'Includes shares to be issued in connection with the vesting of one or more restricted stock units.' });
    expect(doc.remarks).toBeNull();
    expect(doc.aff10b5One).toBeNull();
    expect(doc.rows.some((r) => r.is10b5_1)).toBe(false);
  });

  it('SCWO: true/false booleans, a relationship box left out reads false', () => {
    const doc = parse('SCWO');
    expect(doc.aff10b5One).toBe(false);
    expect(doc.reportingOwners[0]).toMatchObject({ cik: '0002064133', isDirector: false, isOfficer: true, officerTitle: 'Chief Technology Officer', isTenPercentOwner: false, isOther: false });
    expect(doc.rows.map((r) => [r.table, r.transactionCode, r.shares?.value, r.equitySwapInvolved])).toEqual([
      ['non_derivative', 'A', 757756, false],
      ['derivative', 'A', 757576, false],
    ]);
    expect(doc.rows[1]).toMatchObject({ conversionOrExercisePrice: { text: '0.33', value: 0.33 }, exerciseDate: null, expirationDate: '2035-04-29', footnoteIds: { transactionShares: ['F1'], exerciseDate: ['F1'] } });
    expect(doc.rows[0]?.transactionCodeInfo?.classification).toBe('grant');
  });

  it('SQ: four open-market purchases and eight holdings', () => {
    const doc = parse('SQ-');
    const buys = transactions(doc, 'non_derivative');
    expect(buys.every((r) => r.transactionCodeInfo?.classification === 'open_market_purchase' && r.transactionCodeInfo.is_open_market)).toBe(true);
    expect(buys[0]).toMatchObject({
      shares: { value: 495539 },
      pricePerShare: { text: '50.8848' },
      directOrIndirect: 'I',
      natureOfOwnership: 'Sequoia Capital US/E Expansion Fund I, L.P.',
      footnoteIds: { transactionPricePerShare: ['F1'], natureOfOwnership: ['F5'] },
    });
    expect(holdings(doc, 'non_derivative').map((r) => r.sequence)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    expect(doc.rows[4]).toMatchObject({ sharesOwnedFollowing: { value: 11388 }, natureOfOwnership: 'Sequoia Capital U.S. Venture Fund XV, L.P.' });
    expect(doc.rows[11]).toMatchObject({ sharesOwnedFollowing: { value: 24044 }, directOrIndirect: 'D', natureOfOwnership: null, footnoteIds: {} });
  });

  it('MSFT: the RSU grant row exactly', () => {
    const bytes = bytesOf('MSFT');
    const doc = parseForm4(bytes);
    const text = bytes.toString('utf8');
    const start = text.indexOf('<derivativeTransaction>');
    const end = text.indexOf('</derivativeTransaction>') + '</derivativeTransaction>'.length;
    expect(doc.rows[1]).toEqual<Form4Row>({
      table: 'derivative',
      kind: 'transaction',
      sequence: 0,
      securityTitle: 'Restricted Stock Units',
      transactionDate: '2024-09-12',
      deemedExecutionDate: null,
      transactionFormType: '4',
      transactionCode: 'A',
      transactionCodeInfo: { code: 'A', label: 'Grant, award or other acquisition pursuant to Rule 16b-3(d)', classification: 'grant', is_open_market: false },
      equitySwapInvolved: false,
      transactionTimeliness: null,
      shares: { text: '26.80', value: 26.8 },
      totalValue: null,
      pricePerShare: { text: '0', value: 0 },
      acquiredDisposed: 'A',
      sharesOwnedFollowing: { text: '15285.559', value: 15285.559 },
      valueOwnedFollowing: null,
      directOrIndirect: 'D',
      natureOfOwnership: null,
      conversionOrExercisePrice: null,
      exerciseDate: null,
      expirationDate: null,
      underlyingSecurityTitle: 'Common Stock',
      underlyingSecurityShares: { text: '26.80', value: 26.8 },
      underlyingSecurityValue: null,
      footnoteIds: { conversionOrExercisePrice: ['F1'], transactionShares: ['F2'], exerciseDate: ['F3'], expirationDate: ['F3'] },
      is10b5_1: false,
      is10b5_1Reason: null,
      is10b5_1FootnoteIds: [],
      quote: text.slice(start, end),
    });
    expect(doc.rows[0]).toMatchObject({ kind: 'holding', sharesOwnedFollowing: { value: 15905 }, directOrIndirect: 'I', natureOfOwnership: 'By Living Trust' });
  });
});

describe('documents made from the fixtures', () => {
  const msft = bytesOf('MSFT').toString('utf8');

  it('reads a 4/A with its date of original submission', () => {
    const amended = msft
      .replace('<documentType>4</documentType>', '<documentType>4/A</documentType>')
      .replace('<periodOfReport>2024-09-12</periodOfReport>', '<periodOfReport>2024-09-12</periodOfReport>\n    <dateOfOriginalSubmission>2024-09-13</dateOfOriginalSubmission>');
    expect(parseForm4(amended)).toMatchObject({ documentType: '4/A', isAmendment: true, dateOfOriginalSubmission: '2024-09-13' });
  });

  it('reads CDATA text as is and tolerates a byte-order mark', () => {
    const doc = parseForm4('\ufeff' + msft.replace('<footnotes>', '<remarks><![CDATA[A & B <c> &amp;]]></remarks>\n    <footnotes>'));
    expect(doc.remarks).toBe('A & B <c> &amp;');
  });

  it('takes an explicit aff10b5One=0 with a 10b5-1 footnote as a footnote-based 10b5-1 row', () => {
    const doc = parseForm4(msft.replace(/(<footnote id="F2">)[^<]*/, '$1These shares were acquired under a Rule 10b5-1 plan.'));
    expect(doc.aff10b5One).toBe(false);
    expect(doc.rows[1]).toMatchObject({ is10b5_1: true, is10b5_1Reason: 'footnote', is10b5_1FootnoteIds: ['F2'] });
    expect(doc.rows[0]).toMatchObject({ is10b5_1: false, is10b5_1Reason: null });
  });
});

describe('errors', () => {
  const msft = bytesOf('MSFT').toString('utf8');
  const cases: Array<[string, string, RegExp]> = [
    ['empty input', '', /not an ownership document/],
    ['an HTML page', '<!DOCTYPE html><html><body>Not found</body></html>', /not an ownership document: root element is <html>/],
    ['another XML document', '<?xml version="1.0"?><edgarSubmission><headerData/></edgarSubmission>', /root element is <edgarSubmission>/],
    ['a truncated document', msft.slice(0, msft.indexOf('</derivativeTransaction>')), /malformed ownership XML: <\w+> is not closed/],
    ['mismatched tags', msft.replace('</issuerName>', '</issuerNam>'), /malformed ownership XML/],
    ['a second root', `${msft}\n<ownershipDocument/>`, /malformed ownership XML: <ownershipDocument> after the root element/],
    ['no issuer', msft.replace(/<issuer>[\s\S]*<\/issuer>/, ''), /without issuer\/issuerCik/],
    ['no reporting owner', msft.replace(/<reportingOwner>[\s\S]*<\/reportingOwner>/, ''), /without reportingOwner/],
    ['no document type', msft.replace('<documentType>4</documentType>', ''), /without documentType/],
    ['a submission without <XML>', '<SEC-DOCUMENT>0001-23-000001.txt\n<SEC-HEADER>\nACCESSION NUMBER:\t0001-23-000001\n</SEC-HEADER>\n<DOCUMENT>\n<TEXT>\npaper\n</TEXT>\n</DOCUMENT>\n</SEC-DOCUMENT>', /without an <XML> ownershipDocument/],
    ['an unterminated <XML> section', `<SEC-DOCUMENT>\n<DOCUMENT>\n<XML>\n${msft}`, /<XML> section without <\/XML>/],
  ];

  it.each(cases)('rejects %s with EdgarParseError', (_label, input, message) => {
    expect(() => parseForm4(input, { url: 'https://example.test/form4.xml' })).toThrow(EdgarParseError);
    expect(() => parseForm4(input, { url: 'https://example.test/form4.xml' })).toThrow(message);
    expect(() => parseForm4(input, { url: 'https://example.test/form4.xml' })).toThrow(/^https:\/\/example\.test\/form4\.xml: /);
  });
});

describe('transaction code table', () => {
  it('has the 20 SEC codes, and only P and S are open-market', () => {
    expect(Object.keys(FORM4_TRANSACTION_CODES).sort()).toEqual(['A', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'O', 'P', 'S', 'U', 'V', 'W', 'X', 'Z']);
    expect(Object.values(FORM4_TRANSACTION_CODES).filter((c) => c.is_open_market).map((c) => c.code).sort()).toEqual(['P', 'S']);
    for (const [letter, info] of Object.entries(FORM4_TRANSACTION_CODES)) expect(info.code).toBe(letter);
  });

  it('classifies codes into the consumer groups', () => {
    const classes = Object.fromEntries(Object.values(FORM4_TRANSACTION_CODES).map((c) => [c.code, c.classification]));
    expect(classes).toEqual({
      P: 'open_market_purchase',
      S: 'open_market_sale',
      V: 'other',
      A: 'grant',
      D: 'disposition_to_issuer',
      F: 'tax_withholding',
      I: 'other',
      M: 'exercise',
      C: 'conversion',
      E: 'expiration',
      H: 'expiration',
      O: 'exercise',
      X: 'exercise',
      G: 'gift',
      L: 'other',
      W: 'inheritance',
      Z: 'other',
      J: 'other',
      K: 'equity_swap',
      U: 'other',
    });
  });

  it('looks codes up ignoring case and spaces; unknown codes are other, empty is null', () => {
    expect(classifyTransactionCode(' s ')).toBe(FORM4_TRANSACTION_CODES.S);
    expect(classifyTransactionCode('Q')).toEqual({ code: 'Q', label: 'Not in the SEC Form 4 transaction code table', classification: 'other', is_open_market: false });
    expect(classifyTransactionCode('')).toBeNull();
    expect(classifyTransactionCode(null)).toBeNull();
  });
});

describe('mentionsRule10b5_1Plan', () => {
  it.each([
    ['The sales reported on this Form 4 were effected pursuant to a preexisting Rule 10b5-1 trading plan adopted by the holder on May 15, 2024.', true],
    ['... PURSUANT TO A RULE 10B5-1 TRADING PLAN PREVIOUSLY ADOPTED ...', true],
    ['Sold under a plan intended to satisfy Rule 10b5\u20111(c).', true],
    ['The sales were not made pursuant to a Rule 10b5-1 trading plan.', false],
    ['The sales reported in this Form 4 were effected for financial and tax planning purposes.', false],
    ['Rule 10b-5 applies.', false],
  ])('%s -> %s', (text, expected) => {
    expect(mentionsRule10b5_1Plan(text)).toBe(expected);
  });
});
