import type { TranscriptSection } from '@app/contracts';
import { unspaced } from './transcript-lines';

/*
 * Section headings and where the closing disclaimer begins. Headings are compared without case
 * and, when letter-spaced ("P R E S E N T A T I O N"), without their spaces, hence the \s*.
 */

const SECTION_HEADINGS: ReadonlyArray<readonly [RegExp, TranscriptSection]> = [
  [/^(?:presentation(?:\s*section)?|prepared\s*remarks|opening\s*remarks|management\s*(?:presentation|remarks|discussion)(?:\s*section)?)$/i, 'presentation'],
  // "Q&A", "Questions and Answers", "QUESTION AND ANSWER SECTION", "Analyst Q&A (CEO and CFO)".
  [/^(?:analysts?\s*)?(?:q\s*&\s*a|q\s*and\s*a|questions?\s*(?:and|&)\s*answers?)(?:\s*(?:section|session))?(?:\s*\([^)]*\))?$/i, 'qa'],
];

/** The section a heading line opens; null when the line is not a section heading. */
export function sectionHeadingOf(text: string): TranscriptSection | null {
  const t = unspaced(text);
  return SECTION_HEADINGS.find(([re]) => re.test(t))?.[1] ?? null;
}

/** A line that opens the disclaimer after the last turn: its heading, or its usual first words. */
const BACK_MATTER =
  /^(?:disclaimer|terms of use|forward[- ]looking statements?|safe harbor(?: statement)?|cautionary (?:note|statement)s?.*|legal notice|important notice|important information)$|^certain statements (?:in|contained in|made in) this (?:transcript|document)/i;

export const opensBackMatter = (text: string): boolean => BACK_MATTER.test(unspaced(text));

/** Words only a disclaimer uses: a page after the last turn that holds them is back matter. */
export const DISCLAIMER_WORDS = /forward[- ]looking statements|not (?:be )?(?:relied|independently verified)|no obligation to (?:publicly )?(?:update|revise)/i;
