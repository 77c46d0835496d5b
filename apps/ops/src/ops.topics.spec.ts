import { projectedTopics, replayedTopics, resolveTopic, selectTopics } from './ops.topics';
import { UsageError } from './ops.args';

describe('topics by name', () => {
  it('a record topic or its DLQ, with or without the namespace', () => {
    expect(resolveTopic('ir.documents.v1', '').dlq).toBe('ir.documents.v1.dlq');
    expect(resolveTopic('ir.documents.v1.dlq', '').name).toBe('ir.documents.v1');
    expect(resolveTopic('ir.documents.v1.dlq', 'ns1').dlq).toBe('ns1.ir.documents.v1.dlq');
    expect(resolveTopic('ns1.edgar.filings.v1', 'ns1').name).toBe('ns1.edgar.filings.v1');
  });

  it('an unknown topic lists the valid ones', () => {
    expect(() => resolveTopic('edgar.nope.v1', '')).toThrow(UsageError);
    // Wrong only against the registry: the list of topics is the help, not the whole usage.
    expect(() => resolveTopic('edgar.nope.v1', '')).toThrow(expect.objectContaining({ showUsage: false }) as Error);
    expect(() => resolveTopic('edgar.nope.v1', '')).toThrow(/unknown topic 'edgar.nope.v1'; valid topics:\n {2}edgar\.companies\.v1 {3}\(dead letters: edgar\.companies\.v1\.dlq\)/);
  });

  it('the projector topics come from the registry; --topics picks among them', () => {
    const all = projectedTopics('');
    expect(all.map((t) => t.name)).toContain('edgar.filings.v1');
    expect(selectTopics(null, '', all)).toHaveLength(all.length);
    expect(selectTopics(['ir.roster.v1', 'edgar.filings.v1'], '', all).map((t) => t.name)).toEqual(['edgar.filings.v1', 'ir.roster.v1']);
  });

  it('the live projector does not read the event log; a replay reads it beside the projected topics', () => {
    expect(projectedTopics('ns1').map((t) => t.name)).not.toContain('ns1.webhooks.events.v1');
    const replayed = replayedTopics('ns1');
    expect(replayed.map((t) => t.name)).toEqual([...projectedTopics('ns1').map((t) => t.name), 'ns1.webhooks.events.v1']);
    expect(selectTopics(['webhooks.events.v1'], 'ns1', replayed).map((t) => t.name)).toEqual(['ns1.webhooks.events.v1']);
  });
});
