import { poolOf } from '../repositories/pg-queryable';
import type { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import type { Provenance } from '@app/contracts';

/** One item of an issuer's newest 10-K, as the read side returns it (read model, camelCase; not an API shape). */
export interface TenkSectionRecord {
  cik: string;
  item: string;
  accession: string;
  form: string;
  /** YYYY-MM-DD, or null when the ingestor did not know it. */
  filedDate: string | null;
  periodEnded: string | null;
  documentUrl: string;
  textLength: number;
  extractorVersion: string;
  title: string;
  status: string;
  reason: string | null;
  heading: string | null;
  charStart: number | null;
  charEnd: number | null;
  length: number | null;
  crossReferencePages: string | null;
  text: string | null;
  provenance: Provenance;
  updatedAt: Date;
}

/** The issuer's description from its newest 10-K's Item 1 that gave one. */
export interface TenkDescriptionRecord {
  description: string;
  accession: string;
  form: string;
  filedDate: string | null;
  periodEnded: string | null;
  charStart: number;
  charEnd: number;
  provenance: Provenance;
}

const DATE = (c: string) => `to_char(${c}, 'YYYY-MM-DD')`;

/** 10-K sections and descriptions, read side. */
export class TenkSectionsRepository {
  private readonly pool: Pool;

  constructor(dataSource: DataSource) {
    this.pool = poolOf(dataSource);
  }

  /** One item ('1', '1A', '7') of the issuer's newest 10-K, or null when none has been read. */
  async section(cik: string, item: string): Promise<TenkSectionRecord | null> {
    const { rows } = await this.pool.query<TenkSectionRecord>({
      name: 'tenk_section_by_cik_item',
      text: `SELECT cik, item, accession, form, ${DATE('filed_date')} AS "filedDate", ${DATE('period_ended')} AS "periodEnded",
          document_url AS "documentUrl", text_length AS "textLength", extractor_version AS "extractorVersion", title, status, reason,
          heading, char_start AS "charStart", char_end AS "charEnd", length, cross_reference_pages AS "crossReferencePages", text,
          provenance, updated_at AS "updatedAt"
        FROM tenk_sections WHERE cik = $1 AND item = $2`,
      values: [cik, item],
    });
    return rows[0] ?? null;
  }

  /** The issuer's 10-K description, or null when no 10-K's Item 1 gave one. */
  async description(cik: string): Promise<TenkDescriptionRecord | null> {
    const { rows } = await this.pool.query<TenkDescriptionRecord>({
      name: 'tenk_description_by_cik',
      text: `SELECT description, accession, form, ${DATE('filed_date')} AS "filedDate", ${DATE('period_ended')} AS "periodEnded",
          char_start AS "charStart", char_end AS "charEnd", provenance
        FROM tenk_descriptions WHERE cik = $1`,
      values: [cik],
    });
    return rows[0] ?? null;
  }
}
