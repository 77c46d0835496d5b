import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Segment observations read model (edgar.segments.v1). Immutable once merged: change with a new migration. */
export class Segments1763790000000 implements MigrationInterface {
  name = 'Segments1763790000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE segment_observations (
        record_key text PRIMARY KEY,
        cik char(10) NOT NULL,
        accession text NOT NULL,
        form text NOT NULL,
        document_url text NOT NULL,
        metric_key text NOT NULL,
        metric text NOT NULL,
        concept text NOT NULL,
        axis text NOT NULL,
        dimension text NOT NULL,
        member_qname text NOT NULL,
        member text NOT NULL,
        issuer_label text NOT NULL,
        context_id text NOT NULL,
        period_kind text NOT NULL,
        period_start date,
        period_end date NOT NULL,
        period_calendar text NOT NULL,
        period_fiscal text,
        value numeric NOT NULL,
        unit text NOT NULL,
        decimals text,
        scale integer NOT NULL,
        displayed text NOT NULL,
        tier text NOT NULL,
        provenance jsonb NOT NULL,
        record_id text NOT NULL,
        data_hash text NOT NULL,
        observed_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX segment_observations_keyset_idx ON segment_observations (cik, period_end, metric_key, member, record_key)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE segment_observations`);
  }
}
