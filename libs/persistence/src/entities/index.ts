import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { CompanyEntity } from './company.entity';
import { FilingEntity } from './filing.entity';
import { SegmentObservationEntity } from './segment-observation.entity';

export { FilingEntity };
export { SegmentObservationEntity };
export { AccountEntity, ApiKeyEntity, CompanyEntity };
export type { Plan } from './account.entity';

/** Every entity of the one DataSource; add new read models here. */
export const ENTITIES = [CompanyEntity, FilingEntity, SegmentObservationEntity, AccountEntity, ApiKeyEntity];
