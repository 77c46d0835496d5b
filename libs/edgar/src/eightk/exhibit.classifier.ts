/**
 * What kind of investor document an 8-K exhibit is, from its type, description, filename and the
 * first lines of its text; null for documents we do not serve (agreements, XBRL, charters,
 * consents, images, the 8-K itself). The rules are data: the first matching cue wins, cues on the
 * description and filename before cues in the text (a press release often "will host a
 * conference call", so "conference call" counts in the text only on its title lines).
 */
export type ExhibitKind = 'press_release' | 'slide_deck' | 'transcript' | 'letter' | 'report' | 'other';

export interface ExhibitToClassify {
  /** `<TYPE>` of the document: "EX-99.1", "EX-10.1", "GRAPHIC", "8-K". */
  type: string;
  description: string | null;
  filename: string | null;
  /** The exhibit's text (its pages joined, or only the first lines); null when not read. */
  text: string | null;
}

/** Exhibit types we serve, with the kind to use when no cue matches. Anything else is null. */
const SERVED: ReadonlyArray<{ type: RegExp; fallback: ExhibitKind }> = [
  { type: /^EX-99(?:[.\s(-]|$)/, fallback: 'other' }, // additional exhibits: releases, decks, transcripts, letters
  { type: /^EX-13(?:[.\s(-]|$)/, fallback: 'report' }, // annual report to security holders
  { type: /^EX-20(?:[.\s(-]|$)/, fallback: 'other' }, // other documents or statements to security holders
];

/** Cues read on the description and the file name, strongest first. */
const NAME_CUES: ReadonlyArray<{ kind: ExhibitKind; cue: RegExp }> = [
  { kind: 'transcript', cue: /transcript/i },
  { kind: 'slide_deck', cue: /presentation|slides?\b|slide ?deck|investor ?deck|earnings ?deck/i },
  { kind: 'letter', cue: /letter to (?:share|stock|unit)holders|(?:share|stock|unit)holder ?letter|letter from the (?:ceo|chairman)/i },
  { kind: 'press_release', cue: /press ?release|news ?release|earnings ?release|(?:^|[^a-z])pr(?:[^a-z]|$)/i },
  { kind: 'report', cue: /supplement|data ?sheet|fact ?sheet|annual ?report|quarterly ?report|\breport\b/i },
];

/** Cues read on the first lines of the text (title lines for transcript and deck wording). */
const TEXT_CUES: ReadonlyArray<{ kind: ExhibitKind; cue: RegExp; lines: number }> = [
  { kind: 'transcript', cue: /transcript|earnings call|conference call|^operator\b/i, lines: 3 },
  { kind: 'slide_deck', cue: /investor presentation|earnings presentation|^presentation\b|^slides?\b/i, lines: 3 },
  { kind: 'letter', cue: /letter to (?:share|stock|unit)holders|(?:share|stock|unit)holder letter|^dear (?:fellow )?(?:share|stock|unit)holders/i, lines: 12 },
  {
    kind: 'press_release',
    cue: /press release|news release|for immediate release|business ?wire|prnewswire|globe ?newswire|accesswire|\bannounces?\b|\breports?\b/i,
    lines: 12,
  },
];

export function classifyExhibit(exhibit: ExhibitToClassify): ExhibitKind | null {
  const type = exhibit.type.trim().toUpperCase();
  const served = SERVED.find((s) => s.type.test(type));
  if (!served) return null;
  const names = [exhibit.description ?? '', exhibit.filename ?? ''].join(' ');
  const byName = NAME_CUES.find((c) => c.cue.test(names));
  if (byName) return byName.kind;
  const lines = (exhibit.text ?? '').split('\n', 40).map((l) => l.trim()).filter(Boolean);
  const byText = TEXT_CUES.find((c) => lines.slice(0, c.lines).some((l) => c.cue.test(l)));
  return byText?.kind ?? served.fallback;
}
