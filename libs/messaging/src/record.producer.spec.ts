import { byteBoundedBatches } from './record.producer';

describe('byteBoundedBatches', () => {
  const sizes = (batches: number[][]) => batches.map((b) => b.length);

  it('cuts by count and by bytes, in order, whichever comes first', () => {
    expect(sizes(byteBoundedBatches(Array.from({ length: 1200 }, () => 10), (n) => n, 500, 1_000_000))).toEqual([500, 500, 200]);
    // Three 13F chunks of ~450 KB: two never share a send under 768 KB.
    const chunks = [450_000, 450_000, 450_000, 1_000];
    expect(byteBoundedBatches(chunks, (n) => n, 500, 768 * 1024)).toEqual([[450_000], [450_000], [450_000, 1_000]]);
    expect(byteBoundedBatches([1, 2, 3], (n) => n, 500, 1_000).flat()).toEqual([1, 2, 3]);
  });

  it('sends an item larger than the bound alone (the broker says whether it fits), and nothing for nothing', () => {
    expect(byteBoundedBatches([10, 2_000, 10], (n) => n, 500, 1_000)).toEqual([[10], [2_000], [10]]);
    expect(byteBoundedBatches([], (n: number) => n, 500, 1_000)).toEqual([]);
  });
});
