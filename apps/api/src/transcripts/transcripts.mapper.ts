import type { TranscriptRecord, TranscriptWithText } from '@app/persistence';
import { toTranscript as toTranscriptResource, toTranscriptDetail as toTranscriptDetailResource } from '@app/resources';
import type { TranscriptBody, TranscriptDetailBody } from './transcripts.schemas';

// The mappings live in @app/resources (`transcript.published` events carry the same resource);
// typed here against the response schemas so the two cannot drift.

export const toTranscript: (t: TranscriptRecord) => TranscriptBody = toTranscriptResource;

export const toTranscriptDetail: (t: TranscriptWithText) => TranscriptDetailBody = toTranscriptDetailResource;
