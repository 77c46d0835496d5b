import { classifyDocument, type ClassifiablePage } from './document.classifier';

const portrait: ClassifiablePage = { width: 612, height: 792, text_rotation: 0 };
const landscape: ClassifiablePage = { width: 792, height: 612, text_rotation: 0 };
const noInfo = { title: null, creator: null, producer: null };

describe('classifyDocument', () => {
  it('reads the publisher\'s titles first, most specific phrase first', () => {
    const pages = [portrait];
    expect(classifyDocument({ pages, info: noInfo, title: 'Notice of Annual Meeting and Proxy Statement' })).toMatchObject({ doc_type: 'proxy_statement', doc_group: 'report' });
    expect(classifyDocument({ pages, info: noInfo, title: '2019 Annual Report' })).toMatchObject({ doc_type: 'annual_report', doc_group: 'report' });
    expect(classifyDocument({ pages, info: noInfo, title: 'Form 10-Q for the quarter ended June 30' })).toMatchObject({ doc_type: 'quarterly_report', doc_group: 'report' });
    expect(classifyDocument({ pages, info: noInfo, title: 'FRP Holdings Reports Fourth Quarter Results' })).toMatchObject({ doc_type: 'press_release', doc_group: 'press_release' });
    expect(classifyDocument({ pages, info: noInfo, title: 'Annual Meeting - 2015 Annual Shareholder Meeting' })).toEqual({ doc_type: 'slide_deck', doc_group: 'slide_deck', cue: 'title:annual meeting' });
  });

  it('takes landscape content on most pages as a slide deck, sideways text on portrait pages included', () => {
    expect(classifyDocument({ pages: [landscape, landscape, portrait], info: noInfo, kind: 'annual_report' }).cue).toBe('landscape');
    expect(classifyDocument({ pages: [{ ...portrait, text_rotation: 90 }, { ...portrait, text_rotation: 270 }], info: noInfo }).doc_type).toBe('slide_deck');
    expect(classifyDocument({ pages: [{ ...landscape, text_rotation: 90 }], info: noInfo }).doc_type).toBe('other');
  });

  it('then the IR link kind, then the producing application', () => {
    expect(classifyDocument({ pages: [portrait], info: noInfo, kind: 'press_release' })).toEqual({ doc_type: 'press_release', doc_group: 'press_release', cue: 'kind:press_release' });
    expect(classifyDocument({ pages: [portrait], info: noInfo, kind: 'webcast' }).doc_type).toBe('other');
    expect(classifyDocument({ pages: [portrait], info: { ...noInfo, creator: 'Microsoft® PowerPoint® 2016' } })).toEqual({ doc_type: 'slide_deck', doc_group: 'slide_deck', cue: 'producer' });
  });
});
