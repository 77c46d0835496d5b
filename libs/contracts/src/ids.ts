import { createHash, hash } from 'node:crypto';

/** sha256 of bytes in the provenance form `sha256:<hex>` (one-shot `hash`: about a third of createHash's cost on a record-sized input). */
export function contentHash(bytes: Uint8Array | string): string {
  return `sha256:${hash('sha256', bytes, 'hex')}`;
}

/** Deterministic record id from the natural key and the content hash of what was read. */
export function recordId(key: string, hash: string): string {
  return `rec_${createHash('sha256').update(`${key}\n${hash}`).digest('hex').slice(0, 32)}`;
}

/** Deterministic source id: the same URL fetched with the same bytes has the same src_id. */
export function sourceId(url: string, hash: string): string {
  return `src_${createHash('sha256').update(`${url}\n${hash}`).digest('hex').slice(0, 24)}`;
}

/** 10-digit zero-padded CIK. */
export function padCik(cik: string | number): string {
  return String(cik).replace(/^0+/, '').padStart(10, '0');
}
