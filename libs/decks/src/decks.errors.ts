export type DecksErrorCode = 'pdf_unreadable' | 'page_too_large';

/**
 * The one error of this library. Both codes are facts about the document, not about the
 * environment: retrying the same bytes fails the same way (the app dead-letters them).
 */
export class DecksError extends Error {
  constructor(
    readonly code: DecksErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'DecksError';
  }
}
