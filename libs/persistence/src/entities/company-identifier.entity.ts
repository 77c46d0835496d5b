import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Provenance } from '@app/contracts';

/**
 * Read model of one identifier candidate an N-PORT holding gives a company: an ISIN of a listing
 * (`subject` = its symbol) or an LEI of an issuer (`subject` = its CIK). One row per distinct
 * value, citing the newest holding that gave it; a subject with two values is ambiguous and
 * serves neither. Written only by the projector (fund-holdings@1); rows stay when a fund sells:
 * a filing that gave an identifier stays on EDGAR.
 */
@Entity({ name: 'company_identifiers' })
@Index('company_identifiers_value_idx', ['scheme', 'value'])
export class CompanyIdentifierEntity {
  /** isin or lei. */
  @PrimaryColumn({ type: 'text' })
  scheme!: string;

  @PrimaryColumn({ type: 'text' })
  subject!: string;

  @PrimaryColumn({ type: 'text' })
  value!: string;

  @Column({ type: 'char', length: 10 })
  cik!: string;

  /** filed (the holding's own identifiers/isin or lei) or cusip (US + CUSIP + check digit). */
  @Column({ type: 'text' })
  derivation!: string;

  @Column({ name: 'fund_key', type: 'text' })
  fundKey!: string;

  @Column({ name: 'fund_name', type: 'text', nullable: true })
  fundName!: string | null;

  @Column({ type: 'text' })
  accession!: string;

  @Column({ name: 'holding_index', type: 'integer' })
  holdingIndex!: number;

  @Column({ name: 'report_date', type: 'date' })
  reportDate!: string;

  @Column({ type: 'text', nullable: true })
  cusip!: string | null;

  /** The fund filing's provenance with the holding's XML (from <name> through the identifier) as the quote. */
  @Column({ type: 'jsonb' })
  provenance!: Provenance;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
