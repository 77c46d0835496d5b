import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash, THIRTEENF_SECURITIES_PER_RECORD, TOPICS, validateRecord } from '@app/contracts';
import { parseThirteenFSecuritiesList, type ThirteenFListedSecurity } from '@app/edgar';
import { defaultFixturesDir } from '@app/testing';
import { quarterOfListFile, thirteenFListPath, thirteenFListUrl, thirteenFSecuritiesRecords } from './thirteenf-securities.mapper';

describe('the 13(f) list location', () => {
  it("names SEC's file of a quarter, and reads the quarter back from a copy's name", () => {
    expect(thirteenFListPath('2020Q3')).toBe('/files/investment/13flist2020q3.pdf');
    expect(thirteenFListUrl('2025Q1')).toBe('https://www.sec.gov/files/investment/13flist2025q1.pdf');
    expect(() => thirteenFListPath('2020-09')).toThrow(RangeError);
    expect(quarterOfListFile('SEC-13flist2020q3.pdf')).toBe('2020Q3');
    expect(quarterOfListFile('list.pdf')).toBeNull();
  });
});

describe('thirteenFSecuritiesRecords', () => {
  const ctx = { runId: 'run_spec', origin: 'live' as const, extractedAt: '2026-11-28T12:00:01.000Z' };

  it("maps SEC's list for 2020Q3 (the real PDF) to valid chunks keyed <quarter>|<index>, MSFT's CUSIP among them", async () => {
    const bytes = readFileSync(join(defaultFixturesDir(), '13f', 'SEC-13flist2020q3.pdf'));
    const source = { url: thirteenFListUrl('2020Q3'), contentHash: contentHash(bytes), fetchedAt: '2026-11-28T12:00:00.000Z' };
    const securities = await parseThirteenFSecuritiesList(new Uint8Array(bytes));
    const records = thirteenFSecuritiesRecords('2020Q3', securities, source, ctx);
    expect(records).toHaveLength(Math.ceil(securities.length / THIRTEENF_SECURITIES_PER_RECORD));
    expect(records.map((r) => r.key)).toEqual(records.map((_, i) => `2020Q3|${i}`));
    for (const r of records) expect(validateRecord(TOPICS.thirteenFSecurities, r)).toMatchObject({ ok: true });
    expect(records.reduce((n, r) => n + r.data.securities.length, 0)).toBe(securities.length);
    expect(records.flatMap((r) => r.data.securities).find((s) => s.cusip === '594918104')).toMatchObject({ has_options: true });
    expect(records[0]!.provenance).toMatchObject({ source_url: 'https://www.sec.gov/files/investment/13flist2020q3.pdf', content_hash: source.contentHash, accession: null });
  });

  it('an empty list is one record with no securities (the quarter was read)', () => {
    const records = thirteenFSecuritiesRecords('2020Q3', [] as ThirteenFListedSecurity[], { url: thirteenFListUrl('2020Q3'), contentHash: contentHash(''), fetchedAt: ctx.extractedAt }, ctx);
    expect(records.map((r) => r.data.chunk)).toEqual([{ index: 0, count: 1, securities_total: 0 }]);
  });
});
