/**
 * Mutable patterns (paper 002, 3.3): values that change from page to page inside a template (numbers,
 * dates, times, durations, counters, month and day names, URLs, e-mails). The tokenizer replaces each
 * occurrence by one class token, so "Posted on 12 March" and "Posted on 3 May" become the same string,
 * and the rule writer puts the class's pattern back into the rule.
 *
 * The list is data: add an entry to extend it. Each entry has
 * - `match`: regex source that recognises one occurrence where a token starts (the tokenizer adds the
 *   word-boundary guards and tries the entries in list order, first match wins);
 * - `emit`: the pattern written into rules for the class; it matches every string `match` matches and is
 *   in the linear-time grammar of src/rules `checkPatternSafety` (no repeated class holding letters, so a
 *   rule may start with any literal word); `null` for classes that no safe pattern can cover (URLs and
 *   e-mails need a repeated letter class): a rule is cut where such a class token stands.
 */

export interface MutablePattern {
  readonly name: string;
  readonly match: string;
  readonly emit: string | null;
}

/** Each word as written, Capitalised and UPPER CASE, deduplicated, in a non-capturing alternation. */
function wordsOf(words: readonly string[]): string {
  const variants = new Set<string>();
  for (const word of words) {
    variants.add(word);
    variants.add(word.charAt(0).toUpperCase() + word.slice(1));
    variants.add(word.toUpperCase());
  }
  return `(?:${[...variants].join("|")})`;
}

/** A class whose match and emitted pattern are the same source. */
function same(name: string, source: string): MutablePattern {
  return { name, match: source, emit: source };
}

const MONTHS: Record<string, readonly string[]> = {
  en: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
  fr: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
  de: ["Januar", "Jänner", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
  es: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "setiembre", "octubre", "noviembre", "diciembre"],
  it: ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"],
};

const DAYS: Record<string, readonly string[]> = {
  en: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
  fr: ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"],
  de: ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonnabend", "Sonntag"],
  es: ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
  it: ["lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica"],
};

const ENGLISH_MONTH_ABBREVIATIONS = ["Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const ENGLISH_DAY_ABBREVIATIONS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** Counted things in templates ("12 comments", "3 réponses"); plurals by an optional suffix or listed forms. */
const COUNTED_NOUNS_ENGLISH = ["comment", "view", "like", "share", "vote", "point", "reply", "replie", "response", "reader",
  "follower", "subscriber", "tweet", "retweet", "review", "rating", "star", "photo", "image", "video", "item", "result",
  "article", "post", "page", "hit", "visit", "download"];
const COUNTED_NOUNS_FRENCH = ["commentaire", "vue", "réponse", "partage", "article", "lecture", "visite", "avis", "photo", "vidéo"];
const COUNTED_NOUNS_SPANISH = ["comentario", "respuesta", "visita", "vista", "lectura", "artículo", "voto", "foto", "vídeo"];
const COUNTED_NOUNS_ITALIAN = ["commento", "commenti", "risposta", "risposte", "visita", "visite", "lettura", "letture",
  "articolo", "articoli", "voto", "voti"];
const COUNTED_NOUNS_GERMAN = ["Kommentar", "Antwort", "Aufruf", "Ansicht", "Artikel", "Bewertung", "Stimme"];

const UNITS_ENGLISH = ["second", "minute", "hour", "day", "week", "month", "year"];
const UNITS_FRENCH = ["seconde", "minute", "heure", "jour", "semaine", "mois", "an"];
const UNITS_SPANISH = ["segundo", "minuto", "hora", "día", "semana", "mes", "año"];
const UNITS_ITALIAN = ["secondo", "secondi", "minuto", "minuti", "ora", "ore", "giorno", "giorni", "settimana", "settimane",
  "mese", "mesi", "anno", "anni"];
/** German units whose plural adds "n" (Stunde → Stunden), and those that add "e" or "en" (Tag → Tage, Tagen). */
const UNITS_GERMAN_N = ["Sekunde", "Minute", "Stunde", "Woche"];
const UNITS_GERMAN_E = ["Tag", "Monat", "Jahr"];

/**
 * The default list, most specific first. Integers come last among the numbers so that dates, times,
 * ordinals, decimals, durations and counters win where they apply.
 */
export const MUTABLE_PATTERNS: readonly MutablePattern[] = [
  // Bounded repeats keep the tokenizer linear on long runs of URL or address characters without an end.
  { name: "url", match: String.raw`(?:https?://|www\.)[^\s<>"']{0,2000}[^\s<>"'.,;:!?)\]]`, emit: null },
  { name: "email", match: String.raw`[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}`, emit: null },
  same("date", String.raw`\d{1,4}[./-]\d{1,2}[./-]\d{1,4}`),
  same("time", String.raw`\d{1,2}:\d{2}(?::\d{2})?`),
  same("duration-en", String.raw`\d+\s+${wordsOf(UNITS_ENGLISH)}s?`),
  same("duration-fr", String.raw`\d+\s+${wordsOf(UNITS_FRENCH)}s?`),
  same("duration-es", String.raw`\d+\s+${wordsOf(UNITS_SPANISH)}(?:es|s)?`),
  same("duration-it", String.raw`\d+\s+${wordsOf(UNITS_ITALIAN)}`),
  same("duration-de", String.raw`\d+\s+${wordsOf(UNITS_GERMAN_N)}n?`),
  same("duration-de-plural-e", String.raw`\d+\s+${wordsOf(UNITS_GERMAN_E)}e?n?`),
  same("counter-en", String.raw`\d+\s+${wordsOf(COUNTED_NOUNS_ENGLISH)}s?`),
  same("counter-fr", String.raw`\d+\s+${wordsOf(COUNTED_NOUNS_FRENCH)}s?`),
  same("counter-es", String.raw`\d+\s+${wordsOf(COUNTED_NOUNS_SPANISH)}s?`),
  same("counter-it", String.raw`\d+\s+${wordsOf(COUNTED_NOUNS_ITALIAN)}`),
  same("counter-de", String.raw`\d+\s+${wordsOf(COUNTED_NOUNS_GERMAN)}e?n?`),
  same("ordinal-en", String.raw`\d+(?:st|nd|rd|th)`),
  same("ordinal-fr", String.raw`\d+[eè](?:r|me)?`),
  same("ordinal-es-it", String.raw`\d+[ºª°]`),
  same("decimal", String.raw`\d+[.,]\d+`),
  same("integer", String.raw`\d+`),
  same("meridiem", String.raw`(?:am|pm|AM|PM|a\.m\.|p\.m\.)`),
  ...Object.entries(MONTHS).map(([language, names]) => same(`month-${language}`, wordsOf(names))),
  same("month-en-short", wordsOf(ENGLISH_MONTH_ABBREVIATIONS)),
  ...Object.entries(DAYS).map(([language, names]) => same(`day-${language}`, wordsOf(names))),
  same("day-en-short", wordsOf(ENGLISH_DAY_ABBREVIATIONS)),
];
