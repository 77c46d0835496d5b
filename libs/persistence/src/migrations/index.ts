import { Initial1763770000000 } from './1763770000000-initial';
import { Filings1763780000000 } from './1763780000000-filings';
import { Segments1763790000000 } from './1763790000000-segments';
import { Funds1763800000000 } from './1763800000000-funds';
import { IssuerPages1763810000000 } from './1763810000000-issuer-pages';
import { Form41763820000000 } from './1763820000000-form4';
import { Form4AmendmentNote1763830000000 } from './1763830000000-form4-amendment-note';
import { Webhooks1763840000000 } from './1763840000000-webhooks';
import { Search1763850000000 } from './1763850000000-search';
import { WebhookDeliveryLease1763860000000 } from './1763860000000-webhook-delivery-lease';
import { IdempotencyKeys1763870000000 } from './1763870000000-idempotency-keys';
import { Form4FilingOwners1763871000000 } from './1763871000000-form4-filing-owners';
import { FundExposureCountIndex1763872000000 } from './1763872000000-fund-exposure-count-index';
import { FundExposureCoveringIndex1763873000000 } from './1763873000000-fund-exposure-covering-index';
import { Transcripts1763880000000 } from './1763880000000-transcripts';
import { TenkSections1763881000000 } from './1763881000000-tenk-sections';
import { CompanyIdentifiers1763882000000 } from './1763882000000-company-identifiers';
import { SegmentMemberKind1763882100000 } from './1763882100000-segment-member-kind';
import { IdempotencyClaimId1763883000000 } from './1763883000000-idempotency-claim-id';
import { CompanyFundCounts1763884000000 } from './1763884000000-company-fund-counts';
import { SearchFilingFormIndex1764100000000 } from './1764100000000-search-filing-form-index';
import { IrSites1764200000000 } from './1764200000000-ir-sites';
import { FilingItems1764300000000 } from './1764300000000-filing-items';
import { FilingDocuments1764300100000 } from './1764300100000-filing-documents';
import { DocumentSources1764300200000 } from './1764300200000-document-sources';
import { InstitutionalHoldings1764400000000 } from './1764400000000-institutional-holdings';
import { FilingFreshness1764500000000 } from './1764500000000-filing-freshness';
import { FilingFirstSeen1764510000000 } from './1764510000000-filing-first-seen';
import { SegmentReconciliation1764530000000 } from './1764530000000-segment-reconciliation';
import { XbrlFacts1764600000000 } from './1764600000000-xbrl-facts';
import { DocumentsDatedOrder1764700000000 } from './1764700000000-documents-dated-order';
import { WebhookEventLog1764800000000 } from './1764800000000-webhook-event-log';

/** Every migration, in order. Explicit imports: works the same from ts (tests) and js (dist). */
export const MIGRATIONS = [
  Initial1763770000000, Filings1763780000000, Segments1763790000000, Funds1763800000000, IssuerPages1763810000000, Form41763820000000,
  Form4AmendmentNote1763830000000, Webhooks1763840000000, Search1763850000000, WebhookDeliveryLease1763860000000,
  IdempotencyKeys1763870000000, Form4FilingOwners1763871000000, FundExposureCountIndex1763872000000,
  FundExposureCoveringIndex1763873000000, Transcripts1763880000000, TenkSections1763881000000, CompanyIdentifiers1763882000000,
  SegmentMemberKind1763882100000, IdempotencyClaimId1763883000000,
  CompanyFundCounts1763884000000, SearchFilingFormIndex1764100000000, IrSites1764200000000,
  FilingItems1764300000000, FilingDocuments1764300100000, DocumentSources1764300200000,
  InstitutionalHoldings1764400000000, FilingFreshness1764500000000, FilingFirstSeen1764510000000,
  SegmentReconciliation1764530000000, XbrlFacts1764600000000, DocumentsDatedOrder1764700000000,
  WebhookEventLog1764800000000,
];
