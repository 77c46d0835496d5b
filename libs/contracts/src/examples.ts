import citiTranscript from './examples/document-text@1.citi-4q2024-transcript.json';

/**
 * Committed example records the running code uses (the webhook test event's built-in transcript
 * sample), as unvalidated JSON: the user parses them with the record's schema.
 */
export const EXAMPLE_RECORDS = {
  /** document-text@1 of the Citigroup Q4 2024 earnings call transcript (one part). */
  citiTranscript: citiTranscript as unknown,
};
