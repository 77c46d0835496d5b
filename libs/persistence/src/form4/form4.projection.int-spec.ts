// @infra-path: its SQL runs on the server's own Postgres: docker-compose.yml's postgres:17 in containers, the machine's (15 on CI) locally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { contentHash, form4RecordV1, recordId, stableStringify, type Form4Data, type RecordEnvelope } from '@app/contracts';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import { createDataSource } from '../data-source';
import { catalogColumns, schemaDifferences } from '../schema-check';
import { TABLES } from '../tables';
import { InsiderTransactionsRepository } from './insider-transactions.repository';
import { RosterRepository } from '../roster/roster.repository';
import type { BatchOutcome } from '../projections/batch-outcome';
import { projectForm4Filings } from './form4.projection';
import { FORM4_DIRECTOR_RANK } from './sec-roster';

/**
 * form4@1 records made by apps/ingest-form4's mapper from the Form 4 fixtures; two DKNG 4/As made
 * from the DKNG fixture with the edits listed under `notes` in the file.
 */
type Form4Record = RecordEnvelope<Form4Data>;
const FIXTURE_NAMES = ['betr', 'dkng', 'guts', 'msft', 'pltr', 'scwo', 'snow', 'sq', 'tsla'] as const;
type RecordName = (typeof FIXTURE_NAMES)[number] | 'dkngAmendment' | 'dkngHoldingsAmendment';
const records = JSON.parse(readFileSync(join(__dirname, '../projections/examples/form4.records.json'), 'utf8')) as Record<RecordName, Form4Record>;
const { tsla, betr, dkng, dkngAmendment, dkngHoldingsAmendment } = records;

/** The same record with other data, observed at another time: a new deterministic id. */
function variant(e: Form4Record, data: Form4Data, observedAt: string): Form4Record {
  return { ...e, key: data.accession, data, observed_at: observedAt, id: recordId(data.accession, contentHash(stableStringify(data))) };
}

let db: TestDatabase;
let ds: DataSource;

beforeAll(async () => {
  db = await createTestDatabase('form4_proj');
  ds = createDataSource({ url: db.url });
  await ds.initialize();
}, 60_000);

afterAll(async () => {
  await ds?.destroy();
  await db?.drop();
});

/** Projects the records as one batch, in one transaction (as the projector does). */
const projectBatch = (...batch: Form4Record[]): Promise<BatchOutcome> => ds.transaction((m) => projectForm4Filings(m, batch));

/** Projects each record as a batch of its own, in order; what each did. */
async function projectEach(...batch: Form4Record[]): Promise<Array<'inserted' | 'updated' | 'unchanged'>> {
  const outcomes: Array<'inserted' | 'updated' | 'unchanged'> = [];
  for (const r of batch) {
    const o = await projectBatch(r);
    expect(o.inserted.length + o.updated.length + o.unchanged).toBe(1);
    outcomes.push(o.inserted.length ? 'inserted' : o.updated.length ? 'updated' : 'unchanged');
  }
  return outcomes;
}

/** What a batch of one record did. */
const projectOne = async (r: Form4Record) => (await projectEach(r))[0]!;

async function reset(): Promise<void> {
  await ds.query('TRUNCATE form4_filings, form4_filing_owners, insider_transactions, roster_entries RESTART IDENTITY');
}

/** Every row of the three tables but wall-clock columns. */
async function snapshot(): Promise<unknown> {
  const filings = await ds.query<Array<Record<string, unknown>>>('SELECT * FROM form4_filings ORDER BY accession');
  const rows = await ds.query<unknown[]>('SELECT * FROM insider_transactions ORDER BY accession, row_table, sequence');
  const roster = await ds.query<Array<Record<string, unknown>>>('SELECT * FROM roster_entries ORDER BY cik, person_key');
  return { filings: filings.map(({ updated_at: _u, ...rest }) => rest), rows, roster: roster.map(({ id: _id, ...rest }) => rest) };
}

const superseded = async (accession: string) =>
  ds.query<Array<{ sequence: number; kind: string; superseded_by: string | null }>>(
    'SELECT sequence, kind, superseded_by FROM insider_transactions WHERE accession = $1 ORDER BY row_table, sequence',
    [accession],
  );

describe('form4@1 read models', () => {
  it('table specs and migrations agree (what db:check asks)', async () => {
    const differences = schemaDifferences(TABLES, await catalogColumns(ds));
    expect(differences).toEqual([]);
  });

  it('the example records satisfy the contract', () => {
    for (const name of [...FIXTURE_NAMES, 'dkngAmendment', 'dkngHoldingsAmendment'] as const) form4RecordV1.parse(records[name]);
  });

  it('projects every fixture once: the same records again change nothing', async () => {
    await reset();
    const all = FIXTURE_NAMES.map((name) => records[name]);
    expect(await projectEach(...all)).toEqual(all.map(() => 'inserted'));
    const oneByOne = await snapshot();
    await reset();
    expect(await projectBatch(...all)).toEqual({ inserted: all.map((r) => r.key), updated: [], unchanged: 0 });
    const before = await snapshot();
    expect(before).toEqual(oneByOne);
    expect(await projectBatch(...all)).toEqual({ inserted: [], updated: [], unchanged: all.length });
    expect(await projectEach(...all)).toEqual(all.map(() => 'unchanged'));
    // The same record twice in one batch: written once.
    expect(await projectBatch(tsla, tsla)).toEqual({ inserted: [], updated: [], unchanged: 2 });
    expect(await snapshot()).toEqual(before);
    const [count] = await ds.query<Array<{ n: number }>>('SELECT count(*)::int AS n FROM insider_transactions');
    expect(count!.n).toBe(FIXTURE_NAMES.reduce((n, name) => n + records[name].data.rows.length, 0));
  });

  it('TSLA: 30 non-derivative sales and exercises stay 30 rows (tranches never merged), with numbers as written and footnotes resolved', async () => {
    const repo = new InsiderTransactionsRepository(ds);
    const { rows } = await repo.list({ cik: '0001318605', includeSuperseded: false, derivative: false }, { direction: 'asc', limit: 100 });
    expect(rows).toHaveLength(30);
    expect(rows.map((r) => r.sequence)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(new Set(rows.map((r) => r.quote)).size).toBe(30);
    const source = tsla.data.rows.filter((r) => r.table === 'non_derivative');
    rows.forEach((r, i) => {
      expect(r).toMatchObject({ kind: 'transaction', code: source[i]!.code, pricePerShare: source[i]!.price_per_share, pricePerShareText: source[i]!.price_per_share_text, shares: source[i]!.shares });
      expect(r.quote).toBe(source[i]!.quote);
    });
    const sale = rows[1]!;
    expect(sale).toMatchObject({ code: 'S', classification: 'open_market_sale', isOpenMarket: true, is10b51: true, is10b51Reason: 'footnote', sortDate: '2021-11-08' });
    const fnText = new Map(tsla.data.footnotes.map((f) => [f.id, f.text]));
    for (const [field, ids] of Object.entries(tsla.data.rows[1]!.footnotes)) {
      expect(sale.footnotes[field]).toEqual(ids.map((id) => ({ id, text: fnText.get(id) })));
    }
    expect(sale.reportingOwners).toEqual(tsla.data.reporting_owners);
    expect(sale).toMatchObject({ srcId: tsla.provenance.src_id, sourceUrl: tsla.data.source_url, contentHash: tsla.provenance.content_hash, supersededBy: null });
  });

  it('BETR: every row carries all 8 reporting owners; 10% owners make no roster entry', async () => {
    const { rows } = await new InsiderTransactionsRepository(ds).list({ cik: '0001835856', includeSuperseded: false }, { direction: 'desc', limit: 10 });
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.reportingOwners).toHaveLength(8);
      expect(r.reportingOwners.map((o) => o.cik)).toEqual(betr.data.reporting_owners.map((o) => o.cik));
    }
    expect(await ds.query(`SELECT * FROM roster_entries WHERE cik = '0001835856'`)).toEqual([]);
    const guts = await ds.query(`SELECT * FROM roster_entries WHERE cik = '0001572616'`);
    expect(guts).toEqual([]);
  });

  it('filters by owner name or CIK, code, classification, dates, table and kind', async () => {
    const repo = new InsiderTransactionsRepository(ds);
    const list = async (filter: Partial<Parameters<typeof repo.list>[0]>, cik = '0001640147') =>
      (await repo.list({ cik, includeSuperseded: false, ...filter }, { direction: 'asc', limit: 100 })).rows;
    expect(await list({ ownerName: 'scarp' })).toHaveLength(15);
    expect(await list({ ownerName: 'nobody' })).toHaveLength(0);
    expect(await list({ ownerCik: '0001402349' })).toHaveLength(15);
    expect((await list({ codes: ['M'] })).map((r) => [r.rowTable, r.sequence])).toEqual([['derivative', 0], ['non_derivative', 0]]);
    expect(await list({ classifications: ['open_market_sale'] })).toHaveLength(5);
    expect(await list({ kind: 'holding' })).toHaveLength(8);
    expect(await list({ derivative: true })).toHaveLength(1);
    expect(await list({ from: '2022-12-14' })).toHaveLength(0);
    expect(await list({ to: '2022-12-13', from: '2022-12-13' })).toHaveLength(15);
    // A name's % and _ are literal.
    expect(await list({ ownerName: '%' })).toHaveLength(0);
  });
});

describe('4/A amendments', () => {
  beforeEach(reset);

  it('a 4/A with transactions supersedes the original rows; a later holdings-only 4/A leaves them', async () => {
    expect(await projectOne(dkng)).toBe('inserted');
    expect(await projectOne(dkngAmendment)).toBe('inserted');
    expect(await superseded(dkng.data.accession)).toEqual([0, 1, 2].map((sequence) => ({ sequence, kind: 'transaction', superseded_by: dkngAmendment.data.accession })));
    expect(await superseded(dkngAmendment.data.accession)).toEqual([0, 1, 2].map((sequence) => ({ sequence, kind: 'transaction', superseded_by: null })));

    expect(await projectOne(dkngHoldingsAmendment)).toBe('inserted');
    expect(await superseded(dkng.data.accession)).toEqual([0, 1, 2].map((sequence) => ({ sequence, kind: 'transaction', superseded_by: dkngAmendment.data.accession })));
    expect(await superseded(dkngAmendment.data.accession)).toEqual([0, 1, 2].map((sequence) => ({ sequence, kind: 'transaction', superseded_by: null })));
    expect(await superseded(dkngHoldingsAmendment.data.accession)).toEqual([{ sequence: 0, kind: 'holding', superseded_by: null }]);

    const repo = new InsiderTransactionsRepository(ds);
    const { rows: standing } = await repo.list({ cik: '0001883685', includeSuperseded: false, kind: 'transaction' }, { direction: 'asc', limit: 10 });
    expect(standing.map((r) => [r.accession, r.pricePerShareText])).toEqual([
      [dkngAmendment.data.accession, '37.59'],
      [dkngAmendment.data.accession, '38.05'],
      [dkngAmendment.data.accession, '39.02'],
    ]);
    const { rows: all } = await repo.list({ cik: '0001883685', includeSuperseded: true }, { direction: 'asc', limit: 10 });
    expect(all).toHaveLength(7);
  });

  it('a holdings-only 4/A alone never supersedes the original transactions', async () => {
    await projectEach(dkng, dkngHoldingsAmendment);
    expect((await superseded(dkng.data.accession)).map((r) => r.superseded_by)).toEqual([null, null, null]);
    expect(await ds.query('SELECT count(*)::int AS n FROM insider_transactions')).toEqual([{ n: 4 }]);
  });

  it('the same state whichever arrives first; a 4/A of another original date restates nothing', async () => {
    await projectEach(dkngHoldingsAmendment, dkngAmendment, dkng);
    const amendmentFirst = await snapshot();
    await reset();
    await projectEach(dkng, dkngAmendment, dkngHoldingsAmendment);
    expect(await snapshot()).toEqual(amendmentFirst);
    // In one batch, in either order.
    for (const batch of [[dkng, dkngAmendment, dkngHoldingsAmendment], [dkngHoldingsAmendment, dkngAmendment, dkng]]) {
      await reset();
      await projectBatch(...batch);
      expect(await snapshot()).toEqual(amendmentFirst);
    }

    await reset();
    const other = variant(dkngAmendment, { ...dkngAmendment.data, date_of_original_submission: '2025-03-19' }, dkngAmendment.observed_at);
    await projectBatch(dkng, other);
    expect((await superseded(dkng.data.accession)).map((r) => r.superseded_by)).toEqual([null, null, null]);
  });

  describe('two originals the same day, for the same period (a large sale split over two Form 4s)', () => {
    // A second Form 4 of the same owner, filed the same day for the same period, of other sales (13 March).
    const second = variant(
      dkng,
      {
        ...dkng.data,
        accession: '0001104659-25-025207',
        accepted_at: '2025-03-19T00:05:00.000Z',
        rows: dkng.data.rows.map((r) => ({ ...r, transaction_date: '2025-03-13' })),
      },
      dkng.observed_at,
    );
    const note = async (accession: string) => (await ds.query<Array<{ amendment_note: string | null }>>('SELECT amendment_note FROM form4_filings WHERE accession = $1', [accession]))[0]!.amendment_note;

    it('a 4/A restates only the original whose rows it carries', async () => {
      await projectEach(dkng, second, dkngAmendment);
      expect((await superseded(dkng.data.accession)).map((r) => r.superseded_by)).toEqual([0, 1, 2].map(() => dkngAmendment.data.accession));
      expect((await superseded(second.data.accession)).map((r) => r.superseded_by)).toEqual([null, null, null]);
      expect(await note(dkngAmendment.data.accession)).toMatch(/^restates the rows it carries of 0001104659-25-025206 \(one of 2 originals of 2025-03-18\)/);
      expect(await note(dkng.data.accession)).toBeNull();

      // Whichever arrives first.
      const state = await snapshot();
      await reset();
      await projectEach(dkngAmendment, second, dkng);
      expect(await snapshot()).toEqual(state);
      // And in one batch.
      await reset();
      await projectBatch(dkngAmendment, second, dkng);
      expect(await snapshot()).toEqual(state);
    });

    it('a 4/A whose rows are in both originals restates neither, and says why', async () => {
      const both = variant(second, { ...second.data, rows: dkng.data.rows }, second.observed_at);
      await projectBatch(dkng, both, dkngAmendment);
      expect((await superseded(dkng.data.accession)).map((r) => r.superseded_by)).toEqual([null, null, null]);
      expect((await superseded(both.data.accession)).map((r) => r.superseded_by)).toEqual([null, null, null]);
      expect(await note(dkngAmendment.data.accession)).toBe('restates nothing: 2 originals of 2025-03-18, and its rows match 2 of them');
    });

    it('a 4/A without a date of original submission restates nothing when two originals could be its own', async () => {
      const undated = variant(dkngAmendment, { ...dkngAmendment.data, date_of_original_submission: null }, dkngAmendment.observed_at);
      await projectEach(dkng, second, undated);
      expect((await superseded(dkng.data.accession)).map((r) => r.superseded_by)).toEqual([null, null, null]);
      expect((await superseded(second.data.accession)).map((r) => r.superseded_by)).toEqual([null, null, null]);
      expect(await note(undated.data.accession)).toBe('restates nothing: no date of original submission, and 2 originals in its family');

      // With one original only, it is that one's.
      await reset();
      await projectBatch(dkng, undated);
      expect((await superseded(dkng.data.accession)).map((r) => r.superseded_by)).toEqual([0, 1, 2].map(() => undated.data.accession));
      expect(await note(undated.data.accession)).toBe(`restates ${dkng.data.accession}`);
    });

    it('a later 4/A of the same original restates the earlier 4/A too', async () => {
      const again = variant(
        dkngAmendment,
        { ...dkngAmendment.data, accession: '0001104659-25-030003', filed_date: '2025-03-25', accepted_at: '2025-03-25T21:00:00.000Z' },
        dkngAmendment.observed_at,
      );
      await projectBatch(again, dkng);
      await projectBatch(second, dkngAmendment);
      expect((await superseded(dkng.data.accession)).map((r) => r.superseded_by)).toEqual([0, 1, 2].map(() => again.data.accession));
      expect((await superseded(dkngAmendment.data.accession)).map((r) => r.superseded_by)).toEqual([0, 1, 2].map(() => again.data.accession));
      expect((await superseded(second.data.accession)).map((r) => r.superseded_by)).toEqual([null, null, null]);
    });
  });

  it('an older record of a filing never replaces a newer one', async () => {
    const newer = variant(dkng, { ...dkng.data, remarks: 'restated remarks' }, '2026-01-01T00:00:00.000Z');
    expect(await projectOne(newer)).toBe('inserted');
    expect(await projectOne(dkng)).toBe('unchanged');
    expect(await ds.query('SELECT remarks, record_id FROM form4_filings')).toEqual([{ remarks: 'restated remarks', record_id: newer.id }]);

    // Within one batch, in either order: the newer record stands.
    for (const batch of [[newer, dkng], [dkng, newer]]) {
      await reset();
      expect(await projectBatch(...batch)).toEqual({ inserted: [dkng.key], updated: [], unchanged: 1 });
      expect(await ds.query('SELECT remarks, record_id FROM form4_filings')).toEqual([{ remarks: 'restated remarks', record_id: newer.id }]);
    }
    // A stored newer record is not replaced by an older one that is newer than another record of the batch.
    const older = variant(dkng, { ...dkng.data, remarks: 'older remarks' }, '2025-12-01T00:00:00.000Z');
    expect(await projectBatch(dkng, older)).toEqual({ inserted: [], updated: [], unchanged: 2 });
    expect(await ds.query('SELECT remarks FROM form4_filings')).toEqual([{ remarks: 'restated remarks' }]);
  });

  it('one batch holding an original and its 4/A gives the rows two batches give', async () => {
    expect(await projectBatch(dkng)).toEqual({ inserted: [dkng.key], updated: [], unchanged: 0 });
    expect(await projectBatch(dkngAmendment)).toEqual({ inserted: [dkngAmendment.key], updated: [], unchanged: 0 });
    const twoBatches = await snapshot();
    await reset();
    expect(await projectBatch(dkng, dkngAmendment)).toEqual({ inserted: [dkng.key, dkngAmendment.key], updated: [], unchanged: 0 });
    expect(await snapshot()).toEqual(twoBatches);
    expect((await superseded(dkng.data.accession)).map((r) => r.superseded_by)).toEqual([0, 1, 2].map(() => dkngAmendment.data.accession));
    await reset();
    await projectBatch(dkngAmendment, dkng);
    expect(await snapshot()).toEqual(twoBatches);
  });

  it('a re-read filing that moves to another family (and drops a row) in the batch of its 4/A: as one by one', async () => {
    // A new reading of the original: another period, one row fewer. The 4/A no longer finds its original.
    const moved = variant(dkng, { ...dkng.data, period_of_report: '2025-03-13', rows: dkng.data.rows.slice(0, 2) }, '2025-08-05T00:00:00.000Z');
    expect(await projectEach(dkng, dkngAmendment, moved)).toEqual(['inserted', 'inserted', 'updated']);
    const oneByOne = await snapshot();
    expect((await superseded(dkng.data.accession)).map((r) => r.superseded_by)).toEqual([null, null]);
    await reset();
    expect(await projectBatch(dkng, dkngAmendment, moved)).toEqual({ inserted: [dkngAmendment.key, dkng.key], updated: [], unchanged: 1 });
    expect(await snapshot()).toEqual(oneByOne);
    await reset();
    await projectBatch(dkng, dkngAmendment);
    expect(await projectBatch(moved)).toEqual({ inserted: [], updated: [dkng.key], unchanged: 0 });
    expect(await snapshot()).toEqual(oneByOne);
  });
});

describe('SEC roster entries from Form 4 reporting owners', () => {
  beforeAll(async () => {
    await reset();
    await projectBatch(...FIXTURE_NAMES.map((name) => records[name]));
  });
  const roster = (cik: string, currentSince = '2000-01-01') => new RosterRepository(ds).listAll(cik, 'executives', currentSince);

  it('lists officers and directors with their title, the issuer, seniority rank and the filing as provenance', async () => {
    expect((await roster('0001318605')).map((r) => [r.name, r.role, r.rank, r.affiliation, r.sourceProvider, r.personKey])).toEqual([
      ['Musk Elon', 'CEO, Director', 1, 'Tesla, Inc.', 'sec', 'cik:0001494730'],
    ]);
    const [dodge] = await roster('0001883685');
    expect(dodge).toMatchObject({
      name: 'Dodge R Stanton',
      role: 'Chief Legal Officer',
      rank: 7,
      affiliation: 'DraftKings Inc.',
      isCurrent: true,
      accession: dkng.data.accession,
      srcId: dkng.provenance.src_id,
      sourceUrl: dkng.data.source_url,
      contentHash: dkng.provenance.content_hash,
      quote: 'Chief Legal Officer',
      lastFiledAt: '2025-03-18',
      email: null,
    });
    expect((await roster('0000789019'))[0]).toMatchObject({ name: 'Hoffman Reid', role: 'Director', rank: FORM4_DIRECTOR_RANK, quote: 'Hoffman Reid', lastFiledAt: '2024-09-13' });
    expect((await roster('0001640147'))[0]).toMatchObject({ name: 'Scarpelli Michael', role: 'Chief Financial Officer', rank: 5 });
  });

  it('is current only within 18 months of the latest filing as officer or director', async () => {
    expect((await roster('0001883685', '2025-03-18'))[0]!.isCurrent).toBe(true);
    expect((await roster('0001883685', '2025-03-19'))[0]!.isCurrent).toBe(false);
    expect((await new RosterRepository(ds).listAll('0001883685', 'executives', '2025-03-19')).filter((e) => e.isCurrent)).toEqual([]);
  });

  it('a later filing without the officer flag ends it; an older one arriving late does not bring it back', async () => {
    const owner = dkng.data.reporting_owners[0]!;
    const later = variant(
      dkng,
      { ...dkng.data, accession: '0001104659-25-040001', filed_date: '2025-06-02', period_of_report: '2025-05-30', reporting_owners: [{ ...owner, is_officer: false, officer_title: null, is_other: true, other_text: 'Former Chief Legal Officer' }] },
      '2025-08-05T00:00:00.000Z',
    );
    await projectOne(later);
    const [entry] = await roster('0001883685');
    expect(entry).toMatchObject({ isCurrent: false, role: 'Chief Legal Officer', accession: dkng.data.accession, lastFiledAt: '2025-03-18' });
    const earlier = variant(dkng, { ...dkng.data, accession: '0001104659-24-040001', filed_date: '2024-11-20', period_of_report: '2024-11-18' }, '2025-08-06T00:00:00.000Z');
    await projectOne(earlier);
    expect((await roster('0001883685'))[0]).toMatchObject({ isCurrent: false, accession: dkng.data.accession });
    // The officer files as one again: current, from that filing.
    const again = variant(dkng, { ...dkng.data, accession: '0001104659-25-050001', filed_date: '2025-09-02', period_of_report: '2025-08-29' }, '2025-09-03T00:00:00.000Z');
    await projectOne(again);
    expect((await roster('0001883685'))[0]).toMatchObject({ isCurrent: true, accession: '0001104659-25-050001', lastFiledAt: '2025-09-02' });
    expect(await ds.query(`SELECT count(*)::int AS n FROM roster_entries WHERE cik = '0001883685'`)).toEqual([{ n: 1 }]);
 
    // All of it as one batch: the same rows.
    const oneByOne = await snapshot();
    await reset();
    await projectBatch(...FIXTURE_NAMES.map((name) => records[name]), later, earlier, again);
    expect(await snapshot()).toEqual(oneByOne);
  });

  it('a re-read filing that no longer shows the officer retires the entry its first reading made', async () => {
    await reset();
    await projectOne(dkng);
    const isCurrent = () => ds.query(`SELECT person_key, is_current FROM roster_entries WHERE cik = '0001883685'`);
    expect(await isCurrent()).toEqual([{ person_key: expect.any(String), is_current: true }]);
    const owner = dkng.data.reporting_owners[0]!;
    const reread = variant(dkng, { ...dkng.data, reporting_owners: [{ ...owner, is_officer: false, officer_title: null, is_other: true, other_text: 'Former Chief Legal Officer' }] }, '2025-08-05T00:00:00.000Z');
    expect(await projectOne(reread)).toBe('updated');
    expect(await isCurrent()).toEqual([{ person_key: expect.any(String), is_current: false }]);
  });
});
