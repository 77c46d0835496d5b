import type { FilingRecord } from '@app/persistence';
import { toFiling as toFilingResource } from '@app/resources';
import type { FilingBody } from './filings.schemas';

/** Read model -> the API's filing item. The mapping lives in @app/resources (webhook events carry the same resource); typed here against the response schema so the two cannot drift. */
export const toFiling: (f: FilingRecord) => FilingBody = toFilingResource;
