import { z } from 'zod';

/*
 * A first-party earnings-call transcript, as split from the text of the issuer's own PDF
 * (document-text@1 `transcript`). Offsets are into the whole document text (the pages joined by
 * DOCUMENT_PAGE_SEPARATOR), in UTF-16 code units like every other offset of the document.
 */

export const TRANSCRIPT_SECTIONS = ['presentation', 'qa'] as const;
export const PARTICIPANT_KINDS = ['company', 'analyst', 'operator'] as const;

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const offset = z.number().int().min(0);

export const transcriptCallSchema = z.object({
  company: z.string().nullable().describe('The company as the document names it ("Citi", "Bank of America"); null when it does not'),
  title: z.string().nullable().describe('The call\'s title line as printed ("Citi Fourth Quarter 2024 Earnings Call")'),
  date: date.describe('The day of the call (YYYY-MM-DD)'),
  date_source: z.enum(['document', 'pdf_title']).describe('document: printed in the front matter; pdf_title: read from the PDF\'s metadata title'),
});

export const transcriptParticipantSchema = z.object({
  name: z.string().min(1).describe('As printed in the participants list; for a speaker the list omits, as the operator introduced them, else as labelled'),
  role: z.string().nullable().describe('Role or title as printed ("Chief Financial Officer", "CFO"); null when none is printed'),
  firm: z.string().nullable().describe('Firm as printed ("Bank of America", "Wolfe Research"); for an analyst the list omits, the firm the operator named'),
  kind: z.enum(PARTICIPANT_KINDS).describe('company: speaks for the issuer; analyst: asks questions; operator: the conference operator'),
  listed: z.boolean().describe('Named in the document\'s participants list (false: found only as a speaker)'),
  quote: z.string().nullable().describe('The line the participant was read from, verbatim (list line, or the operator\'s introduction)'),
});

export const transcriptTurnSchema = z.object({
  speaker: z.string().min(1).describe('The participant\'s name, with the capitalization of the participants list'),
  participant_index: z.number().int().min(0).describe('Index of the speaker in participants'),
  label: z.string().min(1).describe('The speaker label as printed ("JANE FRASER", "Brian Moynihan")'),
  section: z.enum(TRANSCRIPT_SECTIONS),
  label_start: offset.describe('Where the turn begins: the start of its speaker label'),
  char_start: offset.describe('Start of what was said (after the label)'),
  char_end: offset.describe('document text.slice(char_start, char_end) is what was said, page breaks and running headers included'),
  page_index: z.number().int().min(0).describe('0-based page the turn begins on'),
  last_page_index: z.number().int().min(0).describe('0-based page the turn ends on'),
  quote: z.string().min(1).describe('The turn\'s first line (label and the first line said), verbatim'),
});

const spanSchema = z.object({ char_start: offset, char_end: offset });

export const transcriptSchema = z
  .object({
    call: transcriptCallSchema,
    participants: z.array(transcriptParticipantSchema),
    turns: z.array(transcriptTurnSchema).min(1),
    front_matter: spanSchema.describe('Title, date and participants list, before the first turn or section heading'),
    back_matter: spanSchema.nullable().describe('Disclaimer after the last turn, when the document has one'),
  })
  .describe('A first-party call transcript that passed the serving gate');

export type TranscriptSection = (typeof TRANSCRIPT_SECTIONS)[number];
export type ParticipantKind = (typeof PARTICIPANT_KINDS)[number];
export type TranscriptCall = z.infer<typeof transcriptCallSchema>;
export type TranscriptParticipant = z.infer<typeof transcriptParticipantSchema>;
export type TranscriptTurn = z.infer<typeof transcriptTurnSchema>;
export type Transcript = z.infer<typeof transcriptSchema>;
