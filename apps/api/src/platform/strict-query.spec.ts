import type { ParamSpecs } from './query.validation';
import { strictQueryItems } from './strict-query';

const specs: ParamSpecs = {
  forms: { kind: 'array', items: { kind: 'string', minLength: 1 }, description: 'forms' },
  limit: { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'limit' },
};

describe('strictQueryItems', () => {
  it('is empty when every parameter is declared', () => {
    expect(strictQueryItems({ forms: ['10-K'], limit: '5' }, specs)).toEqual([]);
    expect(strictQueryItems({}, undefined)).toEqual([]);
  });

  it('names each undeclared parameter as extra_forbidden, with what was sent', () => {
    expect(strictQueryItems({ form: '10-K', limit: '5', x: ['1', '2'] }, specs)).toEqual([
      { type: 'extra_forbidden', loc: ['query', 'form'], msg: 'Extra inputs are not permitted', input: '10-K' },
      { type: 'extra_forbidden', loc: ['query', 'x'], msg: 'Extra inputs are not permitted', input: ['1', '2'] },
    ]);
    expect(strictQueryItems({ page: '2' }, undefined)).toEqual([{ type: 'extra_forbidden', loc: ['query', 'page'], msg: 'Extra inputs are not permitted', input: '2' }]);
  });

  it('reports the declared parameters that are invalid in the same list', () => {
    expect(strictQueryItems({ limit: '0', form: '10-K' }, specs)).toEqual([
      { type: 'greater_than_equal', loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', input: '0', ctx: { ge: 1 } },
      { type: 'extra_forbidden', loc: ['query', 'form'], msg: 'Extra inputs are not permitted', input: '10-K' },
    ]);
  });
});
