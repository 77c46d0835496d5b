import { footnotesByField } from './insider-transaction.resource';

describe('footnotesByField', () => {
  it("keys a row's footnotes by the row's field names, not the Form 4 XML element names", () => {
    const f1 = { id: 'F1', text: 'Weighted average price.' };
    const f2 = { id: 'F2', text: 'Sold under a Rule 10b5-1 plan.' };
    const f3 = { id: 'F3', text: 'Held by a trust.' };
    expect(
      footnotesByField({
        transactionPricePerShare: [f1],
        transactionShares: [f2],
        transactionCoding: [f2],
        transactionCode: [f2, f3],
        natureOfOwnership: [f3],
        sharesOwnedFollowingTransaction: [f1],
        underlyingSecurityShares: [f1],
      }),
    ).toEqual({
      price_per_share: [f1],
      shares: [f2],
      code: [f2, f3],
      nature_of_ownership: [f3],
      shares_owned_following: [f1],
      underlying_shares: [f1],
    });
  });

  it('keeps an element with no field of the row, in snake_case', () => {
    const f = { id: 'F9', text: null };
    expect(footnotesByField({ postTransactionAmounts: [f], ownershipNature: [f] })).toEqual({ post_transaction_amounts: [f], ownership_nature: [f] });
  });

  it('keeps element names that are Object members as plain keys', () => {
    const byElement = JSON.parse('{"__proto__": [{"id": "F1", "text": null}], "constructor": [{"id": "F1", "text": null}]}') as Record<string, { id: string; text: null }[]>;
    const out = footnotesByField(byElement);
    expect(Object.keys(out).sort()).toEqual(['__proto__', 'constructor']);
    expect(JSON.parse(JSON.stringify(out))).toEqual(byElement);
  });
});
