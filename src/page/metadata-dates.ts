/**
 * Dates as ISO 8601: a day stays a day (2012-07-24), a time keeps the offset the page wrote (2024-03-05T09:30:00+01:00;
 * Z for UTC and GMT, never converted), a time written without an offset stays without one, and a time whose zone is
 * a name of no known offset ("IST": India, Ireland or Israel) gives its day only. A value that is not a whole date
 * (no year, "yesterday", "3 hours ago") is null: a reader shows no date rather than a wrong one.
 */
import { tidy } from "./metadata-values";

/** ISO-like: 2024-03-05, 2024/3/5, with a time after T or a space, a stray mark a template left ("05:55%Z") and a zone. */
const ISO_DATE = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:(?:T|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*[^\w\s:+-]?\s*((?:Z|UTC|GMT)?(?:[+-]\d{2}(?::?\d{2})?)?)$/i;
/** Numbers only, day, month and year in some order: 29.05.2007, 05/29/2007, 29-05-2007 (a time may follow). */
const NUMERIC_DATE = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})(?:(?:,|\s+at|\s+-)?\s+(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?\s*([ap]\.?m\.?)?)?\s*((?:Z|UTC|GMT)?(?:[+-]\d{2}(?::?\d{2})?)?)$/i;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAYS = new Set(["mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"]);
/** Words a written date holds around its parts ("Tuesday, 24 July 2012 at 10:00", "le 5 mars"). */
const FILLER_WORDS = new Set(["at", "on", "the", "of"]);
/** Offsets of the zone names US and European pages write; other names (IST, AST…) name several zones. */
const ZONE_OFFSETS: Readonly<Record<string, string>> = {
  z: "Z", utc: "Z", gmt: "Z", ut: "Z",
  est: "-05:00", edt: "-04:00", cst: "-06:00", cdt: "-05:00", mst: "-07:00", mdt: "-06:00", pst: "-08:00", pdt: "-07:00",
  bst: "+01:00", cet: "+01:00", cest: "+02:00",
};
/**
 * The parts of a written date: a time (13:05, 1.05, 01:38:07, with its fraction), an offset (+0100, -05:00), a number
 * (with an ordinal's ending), a word (with a point: "Jan.", "a.m."), and the punctuation between them.
 */
const DATE_TOKEN = /(\d{1,2})[:.](\d{2})(?:[:.](\d{2})(\.\d+)?)?|([+-]\d{2}:?\d{2})(?!\d)|(\d+)(?:st|nd|rd|th)?\b|(\p{L}+)\.?|([\s,./|–—]+|-(?!\d))|(.)/giu;

/** The date of a written value as ISO 8601, or null. `lang` (the page's language) orders an ambiguous 05/06/2007. */
export function normaliseDate(value: string | null, lang: string | null = null): string | null {
  const written = tidy(value);
  if (written === null) return null;
  const iso = ISO_DATE.exec(written);
  if (iso !== null) return isoDate(iso[1], iso[2], iso[3], { hour: iso[4], minute: iso[5], second: iso[6], fraction: iso[7], zone: zoneOffset(iso[8]) });
  const numeric = NUMERIC_DATE.exec(written);
  if (numeric !== null) return numericDate(numeric, lang);
  return writtenDate(written);
}

interface TimeParts {
  readonly hour?: string;
  readonly minute?: string;
  readonly second?: string;
  readonly fraction?: string;
  /** The ISO offset ("Z", "+01:00"), "" when none was written, null when the zone's name gives no one offset. */
  readonly zone: string | null;
}

/** Numbers in the order the page's language writes them: dots are day first; with slashes or dashes, the one above 12 is the day. */
function numericDate(match: RegExpExecArray, lang: string | null): string | null {
  const [, first, separator, second, year, hour, minute, second_, meridiem, zone] = match;
  const time = { hour: twelveHour(hour, meridiem), minute, second: second_, zone: zoneOffset(zone) };
  let dayFirst: boolean | null = separator === "." || Number(first) > 12 ? true : Number(second) > 12 ? false : first === second ? true : null;
  dayFirst ??= writesDayFirst(lang);
  if (dayFirst === null) return null; // 05/06/2007 on a page of no known language: May or June
  return dayFirst ? isoDate(year, second, first, time) : isoDate(year, first, second, time);
}

/** US English writes the month first (en, en-US); other languages and Englishes the day; null when the language is unknown. */
function writesDayFirst(lang: string | null): boolean | null {
  const tag = tidy(lang)?.toLowerCase().replace(/_/g, "-") ?? null;
  if (tag === null) return null;
  return !(tag === "en" || tag === "en-us");
}

/**
 * A date written in words and numbers, its parts in any order: "24 July 2012", "Tue, 24 Jul 2012 14:41:54 GMT",
 * "July 24, 2012 10:00 am EST", "Tue Nov 19 2019 03:05:46 GMT+0000 (Coordinated Universal Time)", "01:38:07 PM IST
 * Nov 20, 2019". Null when a part is missing or a word is not a date's.
 */
function writtenDate(written: string): string | null {
  // A zone's long name in parentheses repeats the offset before it; an abbreviation in them is the zone itself.
  const text = written.replace(/\((?!\s*[A-Za-z]{2,5}\s*\))[^)]*\)/g, " ").replace(/[()]/g, " ").replace(/\b([ap])\.\s?m\b\.?/gi, "$1m");
  let year: string | undefined;
  let month: number | undefined;
  let day: string | undefined;
  let time: { hour: string; minute: string; second?: string; fraction?: string } | undefined;
  let meridiem: string | undefined;
  let zone: string | null = "";
  for (const token of text.matchAll(DATE_TOKEN)) {
    const [, hour, minute, second, fraction, offset, number, word, , other] = token;
    if (other !== undefined) return null;
    if (hour !== undefined) {
      if (time !== undefined) return null;
      time = { hour, minute, second, fraction };
    } else if (offset !== undefined) {
      if (zone !== "" && zone !== "Z") return null;
      zone = zoneOffset(offset);
    } else if (number !== undefined) {
      if (number.length === 4 && year === undefined) year = number;
      else if (number.length <= 2 && day === undefined) day = number;
      else return null;
    } else if (word !== undefined) {
      const lower = word.toLowerCase();
      const monthIndex = monthOf(lower);
      if (monthIndex !== null && month === undefined) month = monthIndex;
      else if ((lower === "am" || lower === "pm") && time !== undefined) meridiem = lower;
      else if (WEEKDAYS.has(lower) || weekdayName(lower) || FILLER_WORDS.has(lower)) continue;
      else if (ZONE_OFFSETS[lower] !== undefined) zone = ZONE_OFFSETS[lower];
      else if (/^[A-Z]{2,5}$/.test(word) && time !== undefined) zone = null; // a zone's name of more than one offset
      else return null;
    }
  }
  if (year === undefined || month === undefined || day === undefined) return null;
  if (time === undefined) return isoDate(year, String(month), day, { zone: "" });
  return isoDate(year, String(month), day, { ...time, hour: twelveHour(time.hour, meridiem), zone });
}

/** The month a word names (1-12): its first three letters, the word no longer than the month's name ("Sept", "Jul."). */
function monthOf(word: string): number | null {
  if (word.length < 3) return null;
  const index = MONTHS.indexOf(word.slice(0, 3));
  if (index < 0) return null;
  const names = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
  return names[index].startsWith(word) || (index === 8 && word === "sept") ? index + 1 : null;
}

function weekdayName(word: string): boolean {
  return /^(?:mon|tues|wednes|thurs|fri|satur|sun)day$/.test(word);
}

/** A 12-hour clock's hour on the 24-hour clock ("1" with "pm" is 13, "12" with "am" is 0). */
function twelveHour(hour: string | undefined, meridiem: string | undefined): string | undefined {
  if (hour === undefined || meridiem === undefined) return hour;
  return String((Number(hour) % 12) + (meridiem.toLowerCase().startsWith("p") ? 12 : 0));
}

/** The zone as an ISO offset: "Z" for UTC and GMT (and GMT+0000), "+01:00" for "+0100", "+01" or "GMT+01:00"; "" when none was written. */
function zoneOffset(zone: string | undefined): string {
  if (zone === undefined || zone === "") return "";
  const digits = zone.replace(/^(?:Z|UTC|GMT)/i, "").replace(":", "");
  if (digits === "") return "Z";
  const offset = `${digits.slice(0, 3)}:${digits.slice(3, 5) || "00"}`;
  return /^[+-]00:00$/.test(offset) && /^(?:UTC|GMT)/i.test(zone) ? "Z" : offset;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isoDate(year: string, month: string, day: string, time: TimeParts): string | null {
  const monthNumber = Number(month);
  const dayNumber = Number(day);
  if (monthNumber < 1 || monthNumber > 12 || dayNumber < 1 || dayNumber > DAYS_IN_MONTH[monthNumber - 1]) return null;
  const date = `${year}-${pad(month)}-${pad(day)}`;
  const { hour, minute, second, fraction, zone } = time;
  if (hour === undefined || minute === undefined || zone === null) return date;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) return date;
  return `${date}T${pad(hour)}:${minute}:${second ?? "00"}${fraction ?? ""}${zone}`;
}

function pad(number: string): string {
  return number.length === 1 ? `0${number}` : number;
}
