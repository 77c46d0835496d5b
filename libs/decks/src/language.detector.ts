export const DETECTED_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'] as const;
export type DetectedLanguage = (typeof DETECTED_LANGUAGES)[number];

/**
 * Frequent function words of each language. Words common to several of them ("de", "en", "a",
 * "la", "que", "no") are left out; the one kept in two lists ("como", Spanish and Portuguese)
 * counts for both and so decides nothing.
 */
const STOPWORDS: Record<DetectedLanguage, ReadonlySet<string>> = {
  en: new Set(['the', 'and', 'of', 'to', 'is', 'that', 'for', 'with', 'on', 'as', 'are', 'this', 'by', 'was', 'be', 'have', 'from', 'or', 'which', 'will', 'our', 'we', 'has', 'were', 'its', 'at']),
  de: new Set(['der', 'die', 'und', 'das', 'ist', 'nicht', 'mit', 'sich', 'auf', 'für', 'dem', 'den', 'ein', 'eine', 'auch', 'wird', 'sind', 'wir', 'bei', 'nach', 'über', 'oder', 'werden', 'zum', 'zur', 'im']),
  fr: new Set(['le', 'les', 'et', 'des', 'est', 'une', 'du', 'dans', 'pour', 'qui', 'sur', 'au', 'aux', 'avec', 'ne', 'pas', 'sont', 'nous', 'cette', 'ces', 'leur', 'été', 'ont', 'plus', 'par', 'ou']),
  es: new Set(['el', 'los', 'las', 'y', 'del', 'es', 'lo', 'como', 'más', 'pero', 'sus', 'fue', 'han', 'entre', 'sobre', 'también', 'hasta', 'muy', 'sin', 'porque', 'cuando', 'ya', 'su', 'al', 'una', 'con']),
  it: new Set(['il', 'di', 'è', 'per', 'gli', 'della', 'delle', 'dei', 'nel', 'nella', 'sono', 'alla', 'anche', 'questo', 'questa', 'degli', 'dal', 'più', 'sul', 'essere', 'ed', 'che', 'questi', 'nelle', 'stato', 'ai']),
  pt: new Set(['os', 'do', 'dos', 'das', 'não', 'um', 'com', 'na', 'em', 'mais', 'foi', 'são', 'ao', 'pelo', 'pela', 'também', 'seu', 'sua', 'isso', 'muito', 'uma', 'como', 'nos', 'às', 'já', 'ele']),
  nl: new Set(['het', 'een', 'van', 'dat', 'niet', 'zijn', 'op', 'voor', 'met', 'ook', 'aan', 'wordt', 'er', 'bij', 'door', 'naar', 'om', 'maar', 'dan', 'worden', 'deze', 'heeft', 'uit', 'wij', 'onze', 'hun']),
};

/** Fewer words than this say too little to tell a language. */
export const MIN_WORDS_FOR_LANGUAGE = 20;

/**
 * The text's language by stopword frequency: the language whose stopwords make up the largest
 * share of the words, when that share is at least 5 % and ahead of every other language; null
 * under MIN_WORDS_FOR_LANGUAGE words, or on a tie. Figures, tickers and
 * tables carry no stopwords, so a deck of mostly numbers may honestly come out null.
 */
export function detectLanguage(text: string): DetectedLanguage | null {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < MIN_WORDS_FOR_LANGUAGE) return null;
  const hits = DETECTED_LANGUAGES.map((language) => ({ language, count: words.filter((w) => STOPWORDS[language].has(w)).length }));
  hits.sort((p, q) => q.count - p.count);
  const [best, second] = hits as [(typeof hits)[number], (typeof hits)[number]];
  if (best.count < words.length * 0.05) return null;
  if (best.count === second.count) return null;
  return best.language;
}
