import type { ParticipantKind, TranscriptSection } from '@app/contracts';
import type { TranscriptRecord, TranscriptWithText } from '@app/persistence';

/** Provenance of a transcript: the PDF it was split from, quoting its first turn's first line. */
export interface TranscriptProvenance {
  src_id: string;
  source_provider: 'issuer_page';
  source_url: string;
  citation_url: string;
  accession: null;
  quote: string | null;
  content_hash: string;
  extracted_at: string | null;
}

export interface TranscriptCallResource {
  company: string | null;
  title: string | null;
  date: string;
  date_source: 'document' | 'pdf_title';
}

/** A transcript list item (GET /v1/transcripts). */
export interface TranscriptResource {
  id: number;
  document_id: number;
  ticker: string | null;
  call: TranscriptCallResource;
  language: string | null;
  pages: number | null;
  participant_count: number;
  turn_count: number;
  url: string;
  provenance: TranscriptProvenance;
}

export interface TranscriptParticipantResource {
  name: string;
  role: string | null;
  firm: string | null;
  kind: ParticipantKind;
  listed: boolean;
  quote: string | null;
}

export interface TranscriptTurnResource {
  index: number;
  speaker: string;
  participant_index: number;
  label: string;
  section: TranscriptSection;
  label_start: number;
  char_start: number;
  char_end: number;
  page_index: number;
  last_page_index: number;
  /** document text.slice(char_start, char_end). */
  text: string;
  quote: string;
  /** The PDF at the turn's first page (PDF open parameters). */
  citation_url: string;
}

/** GET /v1/transcripts/{id}, and the data of `transcript.published`. */
export interface TranscriptDetailResource extends TranscriptResource {
  participants: TranscriptParticipantResource[];
  sections: { presentation: number; qa: number };
  turns: TranscriptTurnResource[];
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Read model -> the transcript list item. */
export function toTranscript(t: TranscriptRecord): TranscriptResource {
  return {
    id: t.id,
    document_id: t.documentId,
    ticker: t.ticker,
    call: { company: t.company, title: t.title, date: t.callDate, date_source: t.dateSource as TranscriptCallResource['date_source'] },
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
export function toTranscriptDetail(t: TranscriptWithText): TranscriptDetailResource {
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
