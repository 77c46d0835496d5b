import { documentSubject } from './document-subject';

describe('documentSubject', () => {
  const exhibit = (items: string[], title = 'Press release') => documentSubject({ docType: 'press_release', docGroup: 'press_release', title, items });
  const irDocument = (docType: Parameters<typeof documentSubject>[0]['docType'], title: string) =>
    documentSubject({ docType, docGroup: docType === 'transcript' ? 'transcript' : 'other', title, items: null });

  it("goes by an exhibit's 8-K items, the most telling first", () => {
    // ADBE 0000796343-23-000044 and ABVC 0001213900-25-032135: results with other items
    expect(exhibit(['2.02', '9.01'], 'Adobe Reports Record Revenue in Q1 Fiscal 2023')).toBe('earnings');
    expect(exhibit(['2.02', '4.02', '7.01', '9.01'])).toBe('earnings');
    // NVDA, JWN: officers' compensation
    expect(exhibit(['5.02', '9.01'])).toBe('governance');
    expect(exhibit(['1.01', '2.03', '9.01'])).toBe('transactions');
    expect(exhibit(['2.03', '9.01'])).toBe('financing');
    // MMM 0000066740-24-000023: the spin-off release under Other Events
    expect(exhibit(['8.01', '9.01'], '3M Board of Directors Approves Spin-off of Solventum')).toBe('disclosure');
    expect(exhibit(['7.01', '9.01'], 'Acme Reports Fourth Quarter Results')).toBe('earnings');
    expect(exhibit(['9.01'])).toBe('other');
  });

  it("goes by an IR document's type and title", () => {
    expect(irDocument('transcript', 'Q1 2025 earnings call')).toBe('earnings');
    expect(irDocument('annual_report', 'FRP 2019 Annual Report')).toBe('earnings');
    expect(irDocument('proxy_statement', '2024 Proxy Statement')).toBe('governance');
    expect(irDocument('slide_deck', 'Annual Meeting - 2015')).toBe('governance');
    expect(irDocument('slide_deck', 'Third Quarter 2024 Results')).toBe('earnings');
    expect(irDocument('slide_deck', 'Investor Presentation')).toBe('other');
  });
});
