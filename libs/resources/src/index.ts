// Read model -> the resources the API serves and webhook events carry (one mapping, so a webhook's
// `data` is byte-for-byte what GET returns). Pure: no I/O.
export { toFiling } from './filing.resource';
export type { FilingResource } from './filing.resource';
export { toInsiderTransaction, toForm4Filing } from './insider-transaction.resource';
export type { InsiderOwnerResource, InsiderTransactionResource, Form4FilingResource } from './insider-transaction.resource';
export { toDocument, toDocumentDetail, toDocumentPage } from './document.resource';
export type { DocumentProvenance, DocumentResource, DocumentDetailResource, DocumentPageResource } from './document.resource';
export { toTranscript, toTranscriptDetail } from './transcript.resource';
export type {
  TranscriptCallResource,
  TranscriptDetailResource,
  TranscriptParticipantResource,
  TranscriptProvenance,
  TranscriptResource,
  TranscriptTurnResource,
} from './transcript.resource';
