import { ROSTER_CATEGORIES } from '@app/contracts';
import { AS_OF_PARAM, CURSOR_PARAM, LIMIT_PARAM, params } from '../platform/query.validation';

/** Query parameters of GET /v1/companies/{symbol}/executives. */
export const executivesParams = params({
  category: {
    kind: 'enum',
    values: ROSTER_CATEGORIES,
    default: 'executives',
    description: 'executives (officers), ir (investor relations contacts) or analysts (research analysts covering the company)',
  },
  current_only: { kind: 'bool', default: true, description: 'Only current people (see is_current); false adds those who are no longer listed or filed as insiders' },
  cursor: CURSOR_PARAM,
  limit: LIMIT_PARAM,
  as_of: AS_OF_PARAM,
});
