import { z } from 'zod';
import { PARTICIPANT_KINDS, TRANSCRIPT_SECTIONS } from '@app/contracts';
import type { TranscriptRecord, TranscriptWithText } from '@app/persistence';
import { dateField, paginationSchema, provenanceSchema } from './shared.resource';

/** Provenance of a transcript: the PDF it was split from, quoting its first turn's first line. */
const transcriptProvenanceSchema = provenanceSchema.extend({
  citation_url: z.string().describe('The PDF\'s URL, to cite'),
});

/** A transcript list item (GET /v1/transcripts). */
export const transcriptSchema = z.object({
  id: z.number().int(),
  document_id: z.number().int().describe('The document the transcript was split from (GET /v1/documents/{doc_id}, its pages and text)'),
  symbol: z.string().nullable().describe("<TICKER>:<MARKET> of the issuer's listing under ticker, else its primary one; null when none is known"),
  ticker: z.string().nullable().describe('Ticker from the IR registry, else the issuer\'s listing'),
  call: z
    .object({
      company: z.string().nullable().describe('The company as the transcript names it'),
      title: z.string().nullable().describe('The call\'s title line as printed'),
      date: dateField().describe('Day of the call (YYYY-MM-DD); the list\'s sort key'),
      date_source: z.enum(['document', 'pdf_title']).describe('document: printed in the transcript; pdf_title: from the PDF\'s metadata title'),
    })
    .describe('The call, as the document states it'),
  language: z.string().nullable().describe('ISO 639-1 code detected from the text'),
  pages: z.number().int().nullable().describe('Page count of the PDF'),
  participant_count: z.number().int(),
  turn_count: z.number().int(),
  url: z.string().describe('The PDF\'s URL'),
  provenance: transcriptProvenanceSchema.describe('The PDF the transcript was split from; quote: the first turn\'s first line'),
});

const participantSchema = z.object({
  name: z.string().describe('As the participants list prints it; a speaker the list omits: as the operator introduced them, else as labelled'),
  role: z.string().nullable().describe('Role or title as printed; null when none is'),
  firm: z.string().nullable().describe('Firm as printed; for an analyst the list omits, the firm the operator named'),
  kind: z.enum(PARTICIPANT_KINDS).describe('company: speaks for the issuer; analyst: asks questions; operator: the conference operator'),
  listed: z.boolean().describe('Named in the document\'s participants list'),
  quote: z.string().nullable().describe('The line the participant was read from, verbatim'),
});

const turnSchema = z.object({
  index: z.number().int().describe('0-based, in document order'),
  speaker: z.string().describe('The participant\'s name, capitalized as the participants list has it'),
  participant_index: z.number().int().describe('Index of the speaker in participants'),
  label: z.string().describe('The speaker label as printed'),
  section: z.enum(TRANSCRIPT_SECTIONS).describe('presentation (prepared remarks) or qa'),
  label_start: z.number().int().describe('Offset in the document text where the turn begins (its speaker label)'),
  char_start: z.number().int().describe('Offset in the document text (GET /v1/documents/{doc_id}/text) where what was said begins'),
  char_end: z.number().int().describe('text is document text.slice(char_start, char_end)'),
  page_index: z.number().int().describe('0-based page the turn begins on'),
  last_page_index: z.number().int().describe('0-based page the turn ends on'),
  text: z.string().describe('What was said, verbatim, page breaks and running headers included'),
  quote: z.string().describe('The turn\'s first line, verbatim'),
  citation_url: z.string().describe('The PDF at the turn\'s first page (#page=N)'),
});

/** GET /v1/transcripts/{id}, and the data of `transcript.published`. */
export const transcriptDetailSchema = transcriptSchema.extend({
  participants: z.array(participantSchema),
  sections: z.object({ presentation: z.number().int(), qa: z.number().int() }).describe('Turns per section'),
  turns: z.array(turnSchema),
});

export const transcriptListSchema = z.object({ data: z.array(transcriptSchema), pagination: paginationSchema });

export type TranscriptBody = z.infer<typeof transcriptSchema>;
export type TranscriptDetailBody = z.infer<typeof transcriptDetailSchema>;
export type TranscriptListBody = z.infer<typeof transcriptListSchema>;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Read model -> the transcript list item. */
export function toTranscript(t: TranscriptRecord): TranscriptBody {
  return {
    id: t.id,
    document_id: t.documentId,
    symbol: t.symbol,
    ticker: t.ticker,
    call: { company: t.company, title: t.title, date: t.callDate, date_source: t.dateSource as TranscriptBody['call']['date_source'] },
    language: t.language,
    pages: t.pageCount,
    participant_count: t.participants.length,
    turn_count: t.turnCount,
    url: t.url,
    provenance: {
      src_id: t.srcId,
      source_provider: 'issuer_page',
      source_url: t.sourceUrl,
      citation_url: t.url,
      accession: null,
      quote: t.quote,
      content_hash: t.contentHash,
      extracted_at: iso(t.extractedAt),
    },
  };
}

/** Read model and its document text -> the transcript with participants and turns, each turn's text sliced from the document text. */
export function toTranscriptDetail(t: TranscriptWithText): TranscriptDetailBody {
  return {
    ...toTranscript(t),
    participants: t.participants.map((p) => ({ name: p.name, role: p.role, firm: p.firm, kind: p.kind, listed: p.listed, quote: p.quote })),
    sections: {
      presentation: t.turns.filter((turn) => turn.section === 'presentation').length,
      qa: t.turns.filter((turn) => turn.section === 'qa').length,
    },
    turns: t.turns.map((turn, index) => ({
      index,
      speaker: turn.speaker,
      participant_index: turn.participant_index,
      label: turn.label,
      section: turn.section,
      label_start: turn.label_start,
      char_start: turn.char_start,
      char_end: turn.char_end,
      page_index: turn.page_index,
      last_page_index: turn.last_page_index,
      text: t.documentText.slice(turn.char_start, turn.char_end),
      quote: turn.quote,
      citation_url: `${t.url}#page=${turn.page_index + 1}`,
    })),
  };
}
