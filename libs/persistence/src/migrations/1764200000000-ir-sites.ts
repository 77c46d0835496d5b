import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * ir_sites (ir.sites.v1): where each issuer's IR site is, or why none was crawled, by CIK.
 * Immutable once merged: change with a new migration.
 */
export class IrSites1764200000000 implements MigrationInterface {
  name = 'IrSites1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE ir_sites (
        cik char(10) PRIMARY KEY,
        ticker text,
        name text NOT NULL,
        status text NOT NULL,
        source text,
        start_url text,
        landing_url text,
        pages jsonb NOT NULL,
        detail text,
        checked_at timestamptz NOT NULL,
        provenance jsonb NOT NULL,
        record_id text NOT NULL,
        observed_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE ir_sites');
  }
}
