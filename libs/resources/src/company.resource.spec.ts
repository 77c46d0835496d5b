import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CompanyData, FundHoldingsData, RecordEnvelope } from '@app/contracts';
import { parseSubmissions } from '@app/edgar';
import { defaultFixturesDir } from '@app/testing';
import { identifierRows, type CompanyRecord, type IdentifierCandidate, type IdentifierRow } from '@app/persistence';
import { nameAsOf, toCompanyDetail } from './company.resource';

const EXAMPLES = resolve(__dirname, '../../contracts/src/examples');
const read = <T>(file: string) => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as T;
const msftRecord = read<RecordEnvelope<CompanyData>>('company@1.msft.json');
const adx = read<RecordEnvelope<FundHoldingsData>>('fund-holdings@1.adx.json');

/** A company_identifiers row as the repository reads it. */
const candidate = (r: IdentifierRow): IdentifierCandidate => ({
  value: r.value,
  derivation: r.derivation,
  fundKey: r.fund_key,
  fundName: r.fund_name,
  accession: r.accession,
  holdingIndex: r.holding_index,
  reportDate: r.report_date,
  cusip: r.cusip,
  provenance: r.provenance,
});

const rows = identifierRows([adx]);
const msftIsin = candidate(rows.find((r) => r.scheme === 'isin' && r.subject === 'MSFT:US')!);
const msftLei = candidate(rows.find((r) => r.scheme === 'lei' && r.subject === '0000789019')!);

/**
 * MSFT:US as the companies repository reads it, from the example company@1 record (the submissions
 * JSON of 2025-08-02): `isin` is what the repository resolved from `isinCandidates`.
 */
function msft(over: Partial<CompanyRecord> = {}): CompanyRecord {
  const d = msftRecord.data;
  return {
    symbol: 'MSFT:US', ticker: 'MSFT', market: 'US', name: d.name, cik: d.cik, isin: msftIsin.value, figi: null, issuerId: 789019,
    listingExchange: d.listing_exchange, website: null, country: d.detail?.country ?? null, isEtf: false, isFund: false, isAdr: false,
    status: 'active', description: null, descriptionProvenance: null, secDetail: d.detail, issuerDescription: null, tenkDescription: null,
    provenance: msftRecord.provenance, observedAt: new Date(msftRecord.observed_at), updatedAt: new Date(msftRecord.observed_at),
    isinCandidates: [msftIsin], leiCandidates: [msftLei],
    ...over,
  };
}

describe('toCompanyDetail: identifiers and the submissions fields', () => {
  it('serves the one ISIN and LEI candidate with their N-PORT source', () => {
    const body = toCompanyDetail(msft());
    expect(body.isin).toBe('US5949181045');
    expect(body.lei).toBe('INR2EJN1ERAN0W5ZP974');
    expect(body.identifier_sources.isin).toMatchObject({ source: 'nport_holding', derivation: 'cusip', cusip: '594918104', fund: { key: 'CIK0000002230', accession: '0000002230-23-990001' } });
    expect(body.identifier_sources.isin!.provenance.quote).toContain('<cusip>594918104</cusip>');
  });

  it('answers null with an "ambiguous" gap when holdings give two different ISINs, never one of them', () => {
    // No fixture has two funds disagreeing on a listing's ISIN: the second candidate is ADX's
    // Alphabet row aimed at MSFT:US, as a second fund's mistaken filing would give it.
    const alphabet = candidate(rows.find((r) => r.scheme === 'isin' && r.subject === 'GOOGL:US')!);
    const body = toCompanyDetail(msft({ isin: null, isinCandidates: [alphabet, msftIsin] }));
    expect(body.isin).toBeNull();
    expect(body.identifier_sources.isin).toBeNull();
    expect(body.gaps.filter((g) => g.field === 'isin')).toEqual([
      {
        code: 'identifier_ambiguous',
        field: 'isin',
        detail:
          'isin: ambiguous: N-PORT holdings give 2 different values (US02079K3059 (Adams Diversified Equity Fund, Inc., 0000002230-23-990001), US5949181045 (Adams Diversified Equity Fund, Inc., 0000002230-23-990001)); none is served',
      },
    ]);
  });

  it('says why there is no ISIN when no holding gives one', () => {
    const body = toCompanyDetail(msft({ isin: null, isinCandidates: [], leiCandidates: [] }));
    expect([body.isin, body.lei]).toEqual([null, null]);
    expect(body.gaps).toEqual(
      expect.arrayContaining([
        { code: 'identifier_not_found', field: 'isin', detail: expect.stringMatching(/^isin: no N-PORT holding/) },
        { code: 'identifier_not_found', field: 'lei', detail: expect.stringMatching(/^lei: neither the SEC submissions nor/) },
      ]),
    );
  });

  it("serves SIC code and description from the submissions JSON; empty website fields are null, with a gap", () => {
    const body = toCompanyDetail(msft());
    expect(body).toMatchObject({ sic: '7372', sic_description: 'Services-Prepackaged Software', website: null, investor_website: null, former_names: [], sector: null, industry: null });
    expect(body.gaps).toEqual(
      expect.arrayContaining([
        { code: 'not_in_source', field: 'website', detail: expect.stringMatching(/^website: /) },
        { code: 'not_in_source', field: 'investor_website', detail: expect.stringMatching(/^investor_website: /) },
      ]),
    );
  });

  it("serves former names with their dates (Tesla's submissions: TESLA MOTORS INC until 2017-01-27)", () => {
    const fixtures = defaultFixturesDir();
    const tesla = parseSubmissions(readFileSync(join(fixtures, 'submissions/CIK0001318605.json')));
    const body = toCompanyDetail(msft({ secDetail: { ...msftRecord.data.detail!, former_names: tesla.formerNames } }));
    expect(body.former_names).toEqual([{ name: 'TESLA MOTORS INC', from: '2005-02-17', to: '2017-01-27' }]);
  });
});

describe('as_of: the name in force that day', () => {
  const fixtures = defaultFixturesDir();
  const tesla = parseSubmissions(readFileSync(join(fixtures, 'submissions/CIK0001318605.json')));
  const murphy = parseSubmissions(readFileSync(join(fixtures, 'submissions/CIK0000717423.json')));

  it("Tesla's submissions: TESLA MOTORS INC from 2005-02-17 through 2017-01-27, then today's name", () => {
    expect(nameAsOf(tesla.name, tesla.formerNames, '2005-02-17')).toEqual({ name: 'TESLA MOTORS INC', note: null });
    expect(nameAsOf(tesla.name, tesla.formerNames, '2016-06-30')).toEqual({ name: 'TESLA MOTORS INC', note: null });
    expect(nameAsOf(tesla.name, tesla.formerNames, '2017-01-27')).toEqual({ name: 'TESLA MOTORS INC', note: null });
    expect(nameAsOf(tesla.name, tesla.formerNames, '2017-01-28')).toEqual({ name: 'Tesla, Inc.', note: null });
  });

  it('a day before the first name SEC lists gets the earliest name with a note; no former names: today\'s name', () => {
    const early = nameAsOf(murphy.name, murphy.formerNames, '1990-01-01');
    expect(early.name).toBe('MURPHY OIL CORP /DE');
    expect(early.note).toEqual({
      code: 'name_before_sec_history',
      field: 'name',
      detail: 'name: SEC lists no name before 1994-02-14; as_of 1990-01-01 predates it, so the earliest name is shown',
    });
    expect(nameAsOf('MICROSOFT CORP', [], '1990-01-01')).toEqual({ name: 'MICROSOFT CORP', note: null });
  });

  it('the detail with as_of: name as of the day, the day echoed, the fields that are today\'s named in gaps', () => {
    const detail = { ...msftRecord.data.detail!, former_names: tesla.formerNames };
    const body = toCompanyDetail(msft({ name: 'Tesla, Inc.', secDetail: detail }), '2016-06-30');
    expect(body.name).toBe('TESLA MOTORS INC');
    expect(body.as_of).toBe('2016-06-30');
    expect(body.gaps[body.gaps.length - 1]!.code).toBe('as_of_not_point_in_time');
    expect(body.gaps[body.gaps.length - 1]!.detail).toMatch(/^as_of 2016-06-30: point in time: name .*Today's values, not point in time: symbol, ticker, isin, lei/);
    // Without as_of nothing changes: no as_of key, today's name.
    const today = toCompanyDetail(msft({ name: 'Tesla, Inc.', secDetail: detail }));
    expect(today.name).toBe('Tesla, Inc.');
    expect(today).not.toHaveProperty('as_of');
    expect(today.gaps.some((g) => g.code.startsWith('as_of'))).toBe(false);
  });
});
