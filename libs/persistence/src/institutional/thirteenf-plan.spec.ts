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
  const filing = (accession: string, filed_date: string, amendment_type: string | null, amendment_number: number | null = null, accepted_at: string | null = null) => ({
    accession,
    filed_date,
    accepted_at,
    amendment_number,
    amendment_type,
  });
  const original = filing('0000000001-21-000001', '2021-02-12', null);
  const restatement = filing('0000000001-21-000005', '2021-03-01', 'restatement', 2);
  const addedBefore = filing('0000000001-21-000003', '2021-02-20', 'new_holdings', 1);
  const addedAfter = filing('0000000001-21-000006', '2021-03-15', 'new_holdings', 3);

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

  it('the same filing date: the later acceptance is the later filing, whatever the accessions say', () => {
    // Self-filed original, then a restatement of the same day through a filing agent (CIK 0000950123): its accession sorts first.
    const selfFiled = filing('0001234567-24-000001', '2024-02-14', null, null, '2024-02-14T10:02:11.000000Z');
    const agentRestatement = filing('0000950123-24-006000', '2024-02-14', 'restatement', 2, '2024-02-14T16:45:03.000000Z');
    for (const order of [[selfFiled, agentRestatement], [agentRestatement, selfFiled]]) {
      expect(quarterFilings(order)).toMatchObject({ base: agentRestatement.accession, current: [agentRestatement.accession] });
    }
    // A new-holdings amendment accepted before the same-day restatement is superseded by it.
    const addedEarlier = filing('0001234567-24-000009', '2024-02-14', 'new_holdings', 1, '2024-02-14T12:00:00.000000Z');
    expect(Object.fromEntries(quarterFilings([selfFiled, addedEarlier, agentRestatement]).supersededBy)).toEqual({
      [selfFiled.accession]: agentRestatement.accession,
      [addedEarlier.accession]: agentRestatement.accession,
      [agentRestatement.accession]: null,
    });
  });

  it('the same filing date without acceptance times: the amendment number, then the accession', () => {
    const sameDay = { ...restatement, filed_date: original.filed_date, accession: '0000000001-21-000000' };
    expect(quarterFilings([original, sameDay]).base).toBe(sameDay.accession);
    const unnumbered = { ...sameDay, amendment_number: null };
    expect(quarterFilings([original, unnumbered]).base).toBe(original.accession);
  });

  it('only new-holdings amendments in: they are what the quarter has', () => {
    expect(quarterFilings([addedAfter, addedBefore])).toMatchObject({ base: null, current: [addedBefore.accession, addedAfter.accession] });
  });
});
