import { ALL_TOPICS } from '@app/contracts';
import { BATCH_PROJECTIONS } from './record-projections';

describe('BATCH_PROJECTIONS', () => {
  it('routes exactly the schemas of the topics the registry lists the projector as consuming', () => {
    const consumed = ALL_TOPICS.filter((t) => t.consumers.includes('projector')).flatMap((t) => Object.keys(t.schemas));
    expect(Object.keys(BATCH_PROJECTIONS).sort()).toEqual([...consumed].sort());
    expect(consumed).toContain('filing@1');
  });
});
