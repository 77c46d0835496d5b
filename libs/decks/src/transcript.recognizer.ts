import type { DocumentKind, Transcript } from '@app/contracts';
import type { DocumentText } from './document-text.builder';
import { splitTranscript, titleSaysTranscript, toTranscript, transcriptGate } from './transcript.splitter';

export interface RecognizeTranscriptInput {
  doc: DocumentText;
  /** The PDF's Info Title. */
  pdfTitle: string | null;
  /** The link text on the IR page, and the kind the page gave the link (its section and words). */
  linkTitle?: string | null;
  kind?: DocumentKind | null;
}

export interface TranscriptRecognition {
  /** The transcript to serve: the document looks like one and passed the gate. */
  transcript: Transcript | null;
  /** Why a document that looks like a transcript did not pass the gate; null when it passed or does not look like one. */
  gate: string | null;
  /** What made it look like a transcript: `kind`, `link_title`, `pdf_title`, `first_page`, `turns`; null when nothing did. */
  cue: string | null;
}

/** Speaker turns alone make a transcript candidate when at least this many, by two or more speakers besides the operator. */
const MIN_TURNS = 4;

/**
 * Whether a document is a first-party call transcript, and if so the transcript to serve. It looks
 * like one by the IR page's link (kind or text), the PDF's metadata title, the first page saying
 * "Transcript", or above all its content: speaker turns. Looking like one is not enough: the split
 * must pass transcriptGate; when it does not, the document keeps its type and `gate` says why.
 */
export function recognizeTranscript(input: RecognizeTranscriptInput): TranscriptRecognition {
  const split = splitTranscript(input.doc, input.pdfTitle);
  const firstPage = input.doc.offsets[0] ? input.doc.text.slice(input.doc.offsets[0].char_start, input.doc.offsets[0].char_end).split('\n').slice(0, 5).join('\n') : '';
  const speakers = new Set(split.turns.filter((t) => split.participants[t.participant_index]?.kind !== 'operator').map((t) => t.participant_index));
  const cue =
    input.kind === 'transcript'
      ? 'kind'
      : titleSaysTranscript(input.linkTitle)
        ? 'link_title'
        : titleSaysTranscript(input.pdfTitle)
          ? 'pdf_title'
          : titleSaysTranscript(firstPage)
            ? 'first_page'
            : split.turns.length >= MIN_TURNS && speakers.size >= 2
              ? 'turns'
              : null;
  if (cue === null) return { transcript: null, gate: null, cue: null };
  const gate = transcriptGate(input.doc, split);
  return gate === null ? { transcript: toTranscript(split), gate: null, cue } : { transcript: null, gate, cue };
}
