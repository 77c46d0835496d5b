import { PROBLEM_PAGES } from '../openapi/problem-pages';
import { DomainError, PROBLEM_OF_CODE, type ErrorCode } from './api.errors';

describe('PROBLEM_OF_CODE', () => {
  it('maps every code to a documented problem with that page status', () => {
    for (const [code, problem] of Object.entries(PROBLEM_OF_CODE)) {
      const page = PROBLEM_PAGES[problem.slug];
      expect({ code, status: page.status }).toEqual({ code, status: problem.status });
    }
  });

  it('gives a domain error the status and slug of its code, and keeps its detail and headers', () => {
    const e = new DomainError('SearchTimeout' satisfies ErrorCode, 'took too long', { 'retry-after': '2' });
    expect(e).toMatchObject({ status: 503, slug: 'search-timeout', detail: 'took too long', headers: { 'retry-after': '2' } });
  });
});
