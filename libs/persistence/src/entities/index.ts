import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { CompanyEntity } from './company.entity';
import { FilingEntity } from './filing.entity';
import { SegmentObservationEntity } from './segment-observation.entity';
import { FundHoldingEntity } from './fund-holding.entity';
import { FundEntity } from './fund.entity';

export { FilingEntity };
export { SegmentObservationEntity };
export { FundEntity, FundHoldingEntity };
export { AccountEntity, ApiKeyEntity, CompanyEntity };
export type { Plan } from './account.entity';

/** Every entity of the one DataSource; add new read models here. */
export const ENTITIES = [CompanyEntity, FilingEntity, SegmentObservationEntity, AccountEntity, ApiKeyEntity, FundEntity, FundHoldingEntity];
