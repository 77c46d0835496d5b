import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { CompanyEntity } from './company.entity';
import { FilingEntity } from './filing.entity';
import { SegmentObservationEntity } from './segment-observation.entity';
import { FundHoldingEntity } from './fund-holding.entity';
import { CompanyFundCountEntity } from './company-fund-count.entity';
import { FundEntity } from './fund.entity';
import { RosterEntryEntity } from './roster-entry.entity';
import { CompanyDescriptionEntity } from './company-description.entity';
import { IrEventEntity } from './ir-event.entity';
import { DocumentEntity } from './document.entity';
import { DocumentPageEntity } from './document-page.entity';
import { Form4FilingEntity, Form4FilingOwnerEntity } from './form4-filing.entity';
import { InsiderTransactionEntity } from './insider-transaction.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEndpointSecretEntity } from './webhook-endpoint-secret.entity';
import { WebhookEventEntity } from './webhook-event.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookAttemptEntity } from './webhook-attempt.entity';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { CompanyIdentifierEntity } from './company-identifier.entity';
import { TranscriptEntity } from './transcript.entity';
import { TenkDescriptionEntity, TenkSectionEntity } from './tenk-section.entity';

export { FilingEntity };
export { SegmentObservationEntity };
export { FundEntity, FundHoldingEntity, CompanyFundCountEntity };
export { AccountEntity, ApiKeyEntity, CompanyEntity, CompanyIdentifierEntity, IdempotencyKeyEntity };
export { RosterEntryEntity, CompanyDescriptionEntity, IrEventEntity, DocumentEntity, DocumentPageEntity, TranscriptEntity };
export { Form4FilingEntity, Form4FilingOwnerEntity, InsiderTransactionEntity };
export { TenkSectionEntity, TenkDescriptionEntity };
export { WebhookEndpointEntity, WebhookEndpointSecretEntity, WebhookEventEntity, WebhookDeliveryEntity, WebhookAttemptEntity };
export type { WebhookDeliveryStatus } from './webhook-delivery.entity';
export type { PdfInfo } from './document.entity';
export type { Plan } from './account.entity';

/** Every entity of the one DataSource; add new read models here. */
export const ENTITIES = [
  CompanyEntity, FilingEntity, SegmentObservationEntity, AccountEntity, ApiKeyEntity, FundEntity, FundHoldingEntity,
  RosterEntryEntity, CompanyDescriptionEntity, IrEventEntity, DocumentEntity, DocumentPageEntity, TranscriptEntity, Form4FilingEntity,
  Form4FilingOwnerEntity, InsiderTransactionEntity, WebhookEndpointEntity, WebhookEndpointSecretEntity, WebhookEventEntity, WebhookDeliveryEntity,
  WebhookAttemptEntity, IdempotencyKeyEntity, CompanyIdentifierEntity, TenkSectionEntity, TenkDescriptionEntity, CompanyFundCountEntity,
];
