import type { InsiderTransactionRecord } from '@app/persistence';
import { toInsiderTransaction as toInsiderTransactionResource } from '@app/resources';
import type { InsiderTransactionBody } from './insiders.schemas';

/** Read model -> the API's insider transaction item. The mapping lives in @app/resources (`form4.filed` events carry the same rows); typed here against the response schema so the two cannot drift. */
export const toInsiderTransaction: (r: InsiderTransactionRecord) => InsiderTransactionBody = toInsiderTransactionResource;
