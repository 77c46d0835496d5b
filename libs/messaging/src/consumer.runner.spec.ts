import { KafkaJSNonRetriableError, KafkaJSProtocolError } from 'kafkajs';
import { groupMembershipError } from './consumer.runner';

// kafkajs's own errors, as its retrier wraps a commit the broker refused.
const protocol = (type: string) => new KafkaJSProtocolError({ type, code: 25, retriable: false, message: `${type} from the broker` } as unknown as Error);
// Its typings omit the second argument the retrier passes (retry/index.js: `{ cause: e.cause || e }`).
const wrapped = (e: Error) => new (KafkaJSNonRetriableError as unknown as new (e: Error, o: { cause: Error }) => Error)(e, { cause: e });

describe('groupMembershipError', () => {
  it('unwraps a commit refused because the member was dropped, so the runner joins again', () => {
    for (const type of ['UNKNOWN_MEMBER_ID', 'REBALANCE_IN_PROGRESS', 'ILLEGAL_GENERATION', 'NOT_COORDINATOR_FOR_GROUP']) {
      const cause = protocol(type);
      expect(groupMembershipError(wrapped(cause))).toBe(cause);
    }
  });

  it('leaves every other error as it is', () => {
    const other = wrapped(protocol('TOPIC_AUTHORIZATION_FAILED'));
    expect(groupMembershipError(other)).toBe(other);
    const plain = new Error('socket hang up');
    expect(groupMembershipError(plain)).toBe(plain);
    expect(groupMembershipError(undefined)).toBeUndefined();
  });
});
