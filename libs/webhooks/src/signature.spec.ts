import { Webhook } from 'standardwebhooks';
import { generateSigningSecret, SecretBox, signingKeyOf } from './secrets';
import { signPayload, webhookHeaders } from './signature';

// The reference implementation (standardwebhooks, a dev dependency) verifies what we sign.
describe('Standard Webhooks signing', () => {
  const body = JSON.stringify({ type: 'filing.created', timestamp: '2026-11-22T03:00:00.000Z', data: { accession: '0000950170-25-100235' } });

  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(signingKeyOf(secret)).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
  });

  it('signs so that the reference library verifies, and refuses a changed body', () => {
    const secret = generateSigningSecret();
    const now = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([secret], 'evt_0123456789abcdef0123456789abcdef', now, body, 'filings-platform-webhooks/1');
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('235', '236'), headers)).toThrow();
    expect(() => new Webhook(generateSigningSecret()).verify(body, headers)).toThrow();
  });

  it('signs with every active secret during a rotation; either verifies', () => {
    const [oldSecret, newSecret] = [generateSigningSecret(), generateSigningSecret()];
    const now = Math.floor(Date.now() / 1000);
    const signature = signPayload([newSecret, oldSecret], 'evt_x', now, body);
    expect(signature.split(' ')).toHaveLength(2);
    const headers = { 'webhook-id': 'evt_x', 'webhook-timestamp': String(now), 'webhook-signature': signature };
    expect(new Webhook(oldSecret).verify(body, headers)).toBeTruthy();
    expect(new Webhook(newSecret).verify(body, headers)).toBeTruthy();
  });
});

describe('SecretBox', () => {
  const box = new SecretBox('11'.repeat(32));
  it('seals and opens; a tampered or foreign box does not open', () => {
    const sealed = box.seal('whsec_abc');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed)).toBe('whsec_abc');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw.writeUInt8(raw.readUInt8(raw.length - 1) ^ 1, raw.length - 1);
    expect(() => box.open(`v1.${raw.toString('base64')}`)).toThrow();
    expect(() => new SecretBox('22'.repeat(32)).open(sealed)).toThrow();
    expect(() => new SecretBox('short')).toThrow(/64 hex/);
  });
});
