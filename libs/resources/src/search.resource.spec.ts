import type { SearchHitRecord } from '@app/persistence';
import { searchHitUrl } from './search.resource';

const base: SearchHitRecord = {
  kind: 'company',
  id: 'MSFT:US',
  title: 'MICROSOFT CORP',
  snippet: '',
  highlights: [],
  score: 1,
  match: 'name',
  symbol: 'MSFT:US',
  date: null,
  provenance: null,
  accession: null,
  documentId: null,
  pageIndex: null,
  category: null,
  isCurrent: null,
};

describe('searchHitUrl', () => {
  it('names the endpoint that serves each kind', () => {
    expect(searchHitUrl(base)).toBe('/v1/companies/MSFT:US');
    expect(searchHitUrl({ ...base, kind: 'filing', id: '0000950170-25-100235' })).toBe('/v1/filings/0000950170-25-100235');
    expect(searchHitUrl({ ...base, kind: 'document', id: '12', documentId: 12 })).toBe('/v1/documents/12');
    expect(searchHitUrl({ ...base, kind: 'document_page', id: '12:0', documentId: 12, pageIndex: 0 })).toBe('/v1/documents/12/pages?page=0');
    const person = { ...base, kind: 'person' as const, id: '0001318605:executives:sec:cik:0001494730', symbol: 'TSLA:US', category: 'executives' };
    expect(searchHitUrl({ ...person, isCurrent: true })).toBe('/v1/companies/TSLA:US/executives?category=executives');
    expect(searchHitUrl({ ...person, category: 'ir', isCurrent: false })).toBe('/v1/companies/TSLA:US/executives?category=ir&current_only=false');
  });
});
