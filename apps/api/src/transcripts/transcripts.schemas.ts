import { z } from 'zod';
import { PARTICIPANT_KINDS, TRANSCRIPT_SECTIONS } from '@app/contracts';
import { paginationSchema, provenanceSchema } from '@app/resources';
import { SYMBOL_PATTERN } from '../companies/companies.schemas';
import { params } from '../platform/query.validation';

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/** Query parameters of GET /v1/transcripts. */
export const transcriptsListParams = params({
  symbols: {
    kind: 'array',
    items: { kind: 'string', pattern: SYMBOL_PATTERN },
    description:
      "<TICKER>:<MARKET> symbols (case-insensitive): transcripts of the listed companies' issuers (by CIK); a symbol no company is listed under matches nothing. " +
      'Repeat the parameter or separate with commas',
  },
  from: { kind: 'string', pattern: DATE_PATTERN, description: 'Earliest call date, inclusive (YYYY-MM-DD)' },
  to: { kind: 'string', pattern: DATE_PATTERN, description: 'Latest call date, inclusive (YYYY-MM-DD)' },
  cursor: { kind: 'string', minLength: 1, maxLength: 1024, description: 'Opaque cursor from the previous page, passed back unchanged' },
  limit: { kind: 'int', minimum: 1, maximum: 500, default: 50, description: 'Page size, 1 to 500 (free plan and sk_test_ keys: at most 25)' },
  direction: { kind: 'enum', values: ['asc', 'desc'], description: 'Sort direction by call date, then id. Default desc (newest first)' },
});

export const transcriptIdParam = params({
  transcript_id: { kind: 'int', minimum: 1, maximum: 2_147_483_647, description: 'Transcript id (integer)' },
});

const transcriptProvenanceSchema = provenanceSchema.extend({
  citation_url: z.string().describe('The PDF\'s URL, to cite'),
});

export const transcriptSchema = z.object({
  id: z.number().int(),
  document_id: z.number().int().describe('The document the transcript was split from (GET /v1/documents/{doc_id}, its pages and text)'),
  ticker: z.string().nullable().describe('Ticker from the IR registry, else the issuer\'s listing'),
  call: z
    .object({
      company: z.string().nullable().describe('The company as the transcript names it'),
      title: z.string().nullable().describe('The call\'s title line as printed'),
      date: z.string().describe('Day of the call (YYYY-MM-DD); the list\'s sort key'),
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

export const transcriptDetailSchema = transcriptSchema.extend({
  participants: z.array(participantSchema),
  sections: z.object({ presentation: z.number().int(), qa: z.number().int() }).describe('Turns per section'),
  turns: z.array(turnSchema),
});

export const transcriptListSchema = z.object({ data: z.array(transcriptSchema), pagination: paginationSchema });

export type TranscriptBody = z.infer<typeof transcriptSchema>;
export type TranscriptDetailBody = z.infer<typeof transcriptDetailSchema>;
export type TranscriptListBody = z.infer<typeof transcriptListSchema>;
