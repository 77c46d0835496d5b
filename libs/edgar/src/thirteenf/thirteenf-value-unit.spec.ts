import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFixturesDir } from '@app/testing';
import { parseThirteenFInfoTable } from './thirteenf-info-table.parser';
import { parseThirteenFPrimaryDoc } from './thirteenf-primary-doc.parser';
import { parseThirteenFSubmission } from './thirteenf-submission.parser';
import { decideValueUnit } from './thirteenf-value-unit';
import type { ThirteenFHolding, ThirteenFPrimaryDoc } from './thirteenf.types';

const read = (file: string): string => readFileSync(join(defaultFixturesDir(), '13f', file), 'utf8');

// Real filings; every derived case below rescales their values by a stated factor.
const bard = {
  filed: '2021-10-15',
  primary: parseThirteenFPrimaryDoc(read('BARD-0001850858-21-000004-primary_doc.xml')),
  holdings: parseThirteenFInfoTable(read('BARD-0001850858-21-000004-bard13fq32021.xml')),
};
const ltsone = parseThirteenFSubmission(read('LTSONE-0001894188-23-000007.txt'));
const acorn = parseThirteenFSubmission(read('ACORNCREEK-0001951757-25-000093.nc'));

/** The holdings with each value multiplied by `factor` (rows chosen by `which`, all by default). */
const scaled = (holdings: ThirteenFHolding[], factor: number, which: (h: ThirteenFHolding) => boolean = () => true) =>
  holdings.map((h) => (which(h) ? { ...h, valueFiled: h.valueFiled * factor } : h));
const withTotal = (primary: ThirteenFPrimaryDoc, factor: number): ThirteenFPrimaryDoc => ({ ...primary, tableValueTotal: primary.tableValueTotal! * factor });

describe('decideValueUnit: the filing-date rule', () => {
  it('thousands before 2023-01-03, dollars from that day; a real filing moved across the day is caught by its prices', () => {
    expect(decideValueUnit('2023-01-02', bard.primary, bard.holdings)).toEqual({ unit: 'thousands', basis: 'filing_date', flag: null, factor: 1000 });
    expect(decideValueUnit('2023-01-03', ltsone.primary, ltsone.holdings)).toEqual({ unit: 'dollars', basis: 'filing_date', flag: null, factor: 1 });
    // BARD's thousands read as dollars: nearly every share under $1.
    expect(decideValueUnit('2023-01-03', bard.primary, bard.holdings)).toEqual({ unit: 'thousands', basis: 'implied_prices', flag: null, factor: 1000 });
    // LTSONE's dollars read as thousands: every share above $10,000.
    expect(decideValueUnit('2023-01-02', ltsone.primary, ltsone.holdings)).toEqual({ unit: 'dollars', basis: 'implied_prices', flag: null, factor: 1 });
  });

  it('each real filing: as filed, its numbers agree with its date', () => {
    expect(decideValueUnit(bard.filed, bard.primary, bard.holdings)).toMatchObject({ unit: 'thousands', basis: 'filing_date', flag: null });
    expect(ltsone.valueUnit).toMatchObject({ unit: 'dollars', basis: 'filing_date', flag: null });
    expect(acorn.valueUnit).toMatchObject({ unit: 'dollars', basis: 'filing_date', flag: null });
  });
});

describe('decideValueUnit: a filing whose numbers contradict its date', () => {
  it('dollars-dated but in thousands, table and summary alike (LTSONE / 1000): implied prices decide thousands', () => {
    const holdings = scaled(ltsone.holdings, 1 / 1000);
    expect(decideValueUnit('2023-11-14', withTotal(ltsone.primary, 1 / 1000), holdings)).toEqual({ unit: 'thousands', basis: 'implied_prices', flag: null, factor: 1000 });
  });

  it('dollars-dated, table in thousands, summary in dollars (LTSONE table / 1000): the summary total decides thousands', () => {
    expect(decideValueUnit('2023-11-14', ltsone.primary, scaled(ltsone.holdings, 1 / 1000))).toEqual({ unit: 'thousands', basis: 'summary_total', flag: null, factor: 1000 });
  });

  it('thousands-dated but in dollars, table and summary alike (BARD x 1000): implied prices decide dollars', () => {
    expect(decideValueUnit(bard.filed, withTotal(bard.primary, 1000), scaled(bard.holdings, 1000))).toEqual({ unit: 'dollars', basis: 'implied_prices', flag: null, factor: 1 });
  });

  it('thousands-dated, table in dollars, summary in thousands (BARD table x 1000): the summary total decides dollars', () => {
    expect(decideValueUnit(bard.filed, bard.primary, scaled(bard.holdings, 1000))).toEqual({ unit: 'dollars', basis: 'summary_total', flag: null, factor: 1 });
  });

  it('a summary 1000x off while every price fits the rule is not clear: the rule stands, flagged (ACORNCREEK summary x 1000)', () => {
    expect(decideValueUnit('2025-01-22', withTotal(acorn.primary, 1000), acorn.holdings)).toEqual({ unit: 'dollars', basis: 'filing_date', flag: 'summary_total_contradicts_date', factor: 1 });
  });

  it('half the rows implausible is not clear: the rule stands, flagged (ACORNCREEK, every other row / 1000)', () => {
    const holdings = scaled(acorn.holdings, 1 / 1000, (h) => h.index % 2 === 0);
    expect(decideValueUnit('2025-01-22', { ...acorn.primary, tableValueTotal: null }, holdings)).toEqual({ unit: 'dollars', basis: 'filing_date', flag: 'implied_prices_contradict_date', factor: 1 });
  });

  it('too few priced rows decide nothing from prices (BARD x 1000, first 4 rows, no summary total)', () => {
    const holdings = scaled(bard.holdings, 1000).slice(0, 4);
    expect(decideValueUnit(bard.filed, { ...bard.primary, tableValueTotal: null }, holdings)).toEqual({ unit: 'thousands', basis: 'filing_date', flag: 'implied_prices_contradict_date', factor: 1000 });
  });

  it('options and principal amounts are not priced (BARD x 1000 with every row turned into a call)', () => {
    const calls = scaled(bard.holdings, 1000).map((h) => ({ ...h, putCall: 'call' as const }));
    expect(decideValueUnit(bard.filed, { ...bard.primary, tableValueTotal: null }, calls)).toEqual({ unit: 'thousands', basis: 'filing_date', flag: null, factor: 1000 });
  });
});
