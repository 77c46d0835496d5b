import type { DataSource } from 'typeorm';
import type {
  CompanyData,
  CompanyDescriptionData,
  DocumentTextData,
  FundHoldingsData,
  FilingData,
  Form4Data,
  IssuerDocumentData,
  IssuerRosterData,
  RecordEnvelope,
  SegmentData,
} from '@app/contracts';
import { PermanentError } from '@app/messaging';
import {
  projectCompany,
  projectCompanyDescription,
  projectDocumentText,
  projectFundHoldings,
  projectFiling,
  projectForm4,
  projectIssuerDocument,
  projectIssuerRoster,
  projectSegment,
  type ProjectionOutcome,
} from '@app/persistence';

/** Postgres SQLSTATE classes that no retry can fix: bad data, not a database outage. */
const PERMANENT_SQLSTATE_CLASSES = ['22', '23', '42'];

function isPermanentDbError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && PERMANENT_SQLSTATE_CLASSES.includes(code.slice(0, 2));
}

/** Routes each validated record to the projection of its schema. */
export class ProjectorService {
  readonly counts: Record<ProjectionOutcome, number> = { inserted: 0, updated: 0, unchanged: 0 };

  constructor(private readonly ds: DataSource) {}

  async handle(envelope: RecordEnvelope): Promise<ProjectionOutcome> {
    let outcome: ProjectionOutcome;
    try {
      outcome = await this.project(envelope);
    } catch (err) {
      if (isPermanentDbError(err)) throw new PermanentError(`projection rejected: ${(err as Error).message}`);
      throw err;
    }
    this.counts[outcome] += 1;
    return outcome;
  }

  private async project(envelope: RecordEnvelope): Promise<ProjectionOutcome> {
    switch (envelope.schema) {
      case 'fund-holdings@1':
        return projectFundHoldings(this.ds, envelope as RecordEnvelope<FundHoldingsData>);
      case 'company@1':
        return projectCompany(this.ds, envelope as RecordEnvelope<CompanyData>);
      case 'filing@1':
        return projectFiling(this.ds, envelope as RecordEnvelope<FilingData>);
      case 'segment@1':
        return projectSegment(this.ds, envelope as RecordEnvelope<SegmentData>);
      case 'ir-roster@1':
        return projectIssuerRoster(this.ds, envelope as RecordEnvelope<IssuerRosterData>);
      case 'company-description@1':
        return projectCompanyDescription(this.ds, envelope as RecordEnvelope<CompanyDescriptionData>);
      case 'ir-document@1':
        return projectIssuerDocument(this.ds, envelope as RecordEnvelope<IssuerDocumentData>);
      case 'document-text@1':
        return projectDocumentText(this.ds, envelope as RecordEnvelope<DocumentTextData>);
      case 'form4@1':
        return projectForm4(this.ds, envelope as RecordEnvelope<Form4Data>);
      default:
        throw new PermanentError(`no projection for schema ${envelope.schema}`);
    }
  }
}
