import { planChunks, quarterFilings } from './thirteenf-plan';

describe('planChunks', () => {
  const chunk = (index: number, hash: string, count = 2) => ({ index, count, hash });

  it('writes a new filing chunk by chunk and is complete when every index has arrived', () => {
    const first = planChunks(undefined, [chunk(0, 'a')]);
    expect(first).toEqual({ write: [0], reset: false, chunk_count: 2, chunk_hashes: ['a', null], completeBefore: false, completeAfter: false });
    expect(planChunks({ chunk_count: 2, chunk_hashes: ['a', null] }, [chunk(1, 'b')])).toMatchObject({ write: [0], chunk_hashes: ['a', 'b'], completeAfter: true });
  });

  it('counts a redelivered chunk once and writes nothing for it', () => {
    expect(planChunks({ chunk_count: 2, chunk_hashes: ['a', null] }, [chunk(0, 'a'), chunk(0, 'a')])).toMatchObject({ write: [], chunk_hashes: ['a', null] });
    // The same chunk twice in one batch: the last one writes.
    expect(planChunks(undefined, [chunk(0, 'a'), chunk(0, 'a2')])).toMatchObject({ write: [1], chunk_hashes: ['a2', null] });
  });

  it('starts over when the filing comes cut differently (stored rows go)', () => {
    const plan = planChunks({ chunk_count: 2, chunk_hashes: ['a', 'b'] }, [chunk(0, 'x', 1)]);
    expect(plan).toEqual({ write: [0], reset: true, chunk_count: 1, chunk_hashes: ['x'], completeBefore: true, completeAfter: true });
  });
});

describe('quarterFilings', () => {
  const original = { accession: '0000000001-21-000001', filed_date: '2021-02-12', amendment_type: null };
  const restatement = { accession: '0000000001-21-000005', filed_date: '2021-03-01', amendment_type: 'restatement' };
  const addedBefore = { accession: '0000000001-21-000003', filed_date: '2021-02-20', amendment_type: 'new_holdings' };
  const addedAfter = { accession: '0000000001-21-000006', filed_date: '2021-03-15', amendment_type: 'new_holdings' };

  it('keeps the latest report and the new-holdings amendments filed after it; the rest is superseded by that report', () => {
    const plan = quarterFilings([addedAfter, restatement, addedBefore, original]);
    expect(plan.base).toBe(restatement.accession);
    expect(plan.current).toEqual([restatement.accession, addedAfter.accession]);
    expect(Object.fromEntries(plan.supersededBy)).toEqual({
      [original.accession]: restatement.accession,
      [addedBefore.accession]: restatement.accession,
      [restatement.accession]: null,
      [addedAfter.accession]: null,
    });
  });

  it('an original with an amendment adding holdings: both current', () => {
    expect(quarterFilings([original, addedBefore]).current).toEqual([original.accession, addedBefore.accession]);
  });

  it('the same filing date: the later accession is the later filing', () => {
    const sameDay = { ...restatement, filed_date: original.filed_date, accession: '0000000001-21-000000' };
    expect(quarterFilings([original, sameDay]).base).toBe(original.accession);
  });

  it('only new-holdings amendments in: they are what the quarter has', () => {
    expect(quarterFilings([addedAfter, addedBefore])).toMatchObject({ base: null, current: [addedBefore.accession, addedAfter.accession] });
  });
});
