import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Random bytes in a signing secret: 32 (the Standard Webhooks range is 24..64). */
export const SIGNING_SECRET_BYTES = 32;

/** After a rotation the previous secret keeps signing beside the new one for this long. */
export const SECRET_ROTATION_GRACE_HOURS = 24;

/** A new Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(SIGNING_SECRET_BYTES).toString('base64')}`;
}

/** The HMAC key inside a `whsec_` secret. */
export function signingKeyOf(secret: string): Buffer {
  if (!secret.startsWith('whsec_')) throw new Error('a signing secret starts with whsec_');
  return Buffer.from(secret.slice('whsec_'.length), 'base64');
}

/**
 * Signing secrets must be readable to sign, so they are stored encrypted (AES-256-GCM) under a
 * server key (WEBHOOK_SECRETS_KEY, 32 bytes as 64 hex characters), never in the clear:
 * a database dump alone cannot forge deliveries. Stored form: `v1.<base64 iv|tag|ciphertext>`.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(hexKey: string) {
    if (!/^[0-9a-fA-F]{64}$/.test(hexKey)) throw new Error('WEBHOOK_SECRETS_KEY must be 32 bytes as 64 hex characters');
    this.key = Buffer.from(hexKey, 'hex');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  open(sealed: string): string {
    if (!sealed.startsWith('v1.')) throw new Error('unknown sealed-secret format');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
