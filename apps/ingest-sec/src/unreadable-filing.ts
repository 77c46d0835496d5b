import { EdgarError, EdgarParseError } from '@app/edgar';

/**
 * A filing's document that can never be read as it stands (unparsable, refused by EDGAR, over the
 * size limit): its record is dead-lettered with the reason, not retried. EDGAR unavailable
 * (network, throttling) is not this: the consumer retries.
 */
export function isUnreadable(error: unknown): error is Error {
  return (
    error instanceof EdgarParseError ||
    error instanceof RangeError ||
    (error instanceof EdgarError && (error.code === 'EDGAR_HTTP_ERROR' || error.code === 'EDGAR_TOO_LARGE'))
  );
}
