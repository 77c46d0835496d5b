import { EdgarParseError } from './edgar.parse-error';

/** Decodes UTF-8 JSON bytes (a leading BOM tolerated). */
export function parseJsonBytes(bytes: Uint8Array | string, source: string): unknown {
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (error) {
    throw new EdgarParseError(source, `not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Trimmed string, or null for null/undefined/empty/whitespace-only; numbers are stringified. */
export function textOrNull(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed.length > 0 ? trimmed : null;
}
