import { poolOf } from '../repositories/pg-queryable';
import type { DataSource } from 'typeorm';
import type { Pool } from 'pg';
import {
  TENK_DESCRIPTION_RECORD_COLUMNS,
  TENK_SECTION_RECORD_COLUMNS,
  type TenkDescriptionRecord,
  type TenkSectionRecord,
} from './tenk-sections.table';

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
      text: `SELECT ${TENK_SECTION_RECORD_COLUMNS}
        FROM tenk_sections WHERE cik = $1 AND item = $2`,
      values: [cik, item],
    });
    return rows[0] ?? null;
  }

  /** The issuer's 10-K description, or null when no 10-K's Item 1 gave one. */
  async description(cik: string): Promise<TenkDescriptionRecord | null> {
    const { rows } = await this.pool.query<TenkDescriptionRecord>({
      name: 'tenk_description_by_cik',
      text: `SELECT ${TENK_DESCRIPTION_RECORD_COLUMNS}
        FROM tenk_descriptions WHERE cik = $1`,
      values: [cik],
    });
    return rows[0] ?? null;
  }
}
