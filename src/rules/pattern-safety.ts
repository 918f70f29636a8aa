/**
 * Linear-time safety of rule patterns.
 *
 * Rules run in backtracking engines (V8's Irregexp, also in workerd) over hostile page text, so a pattern is
 * accepted only if its search cost is provably linear in the text length. The proof needs two properties,
 * both checked here on the parsed pattern:
 *
 * 1. Deterministic: at every choice point at most one branch can go on past the next character. A
 *    variable-count atom stops where its class stops matching, because what follows it cannot start with a
 *    character of its class; an optional or repeated group likewise; the alternatives of a group either are
 *    plain literals none of which is a prefix of another (at most one can match), or start with pairwise
 *    disjoint characters. Backtracking then only ever retries a position once and fails at once, so one match
 *    attempt costs O(P) per character it examines (P = pattern length).
 * 2. Attempts rarely overlap: the pattern starts with an unrepeated element whose first characters F0
 *    are in no repeated class. An attempt starts only on an F0 character, and the text it examines holds F0
 *    characters only where unrepeated elements matched (at most P of them), so each text position is
 *    examined by at most P + 1 attempts. The whole search costs O(P² · n), linear in the text length n.
 *
 * The accepted grammar (the miner writes patterns in it; anything else is refused with a reason):
 *
 *   pattern     := element+                        at most RULES_MAX_PATTERN_LENGTH characters
 *   element     := atom quantifier? | group
 *   atom        := literal | escape | class | "."
 *   literal     := any character except  \ ^ $ . | ? * + ( ) [ ] { }
 *   escape      := \d \D \s \S \w \W | \n \r \t \f \v | \xHH | \uHHHH | "\" ASCII punctuation or space
 *   class       := "[" "^"? member+ "]"            member := char | char "-" char | \d \D \s \S \w \W
 *                                                   (char: anything but "\" and "]", or an escape above)
 *   quantifier  := "?" | "*" | "+" | "{n}" | "{n,}" | "{n,m}"      greedy only, n and m <= 1000
 *   group       := "(?:" element+ ("|" element+)* ")" quantifier?  nested at most 2 deep
 *
 * Refused: capturing, named and lookaround groups, backreferences, anchors (^ $ \b \B), lazy quantifiers,
 * alternation outside a group, flags (rules are compiled with "g" only: case-sensitive, no `u`, no `s`).
 *
 * Conditions on a parsed pattern (follow(e) = the characters that can come right after element e):
 * - the first element has no quantifier and cannot match empty; its first characters are in no atom or
 *   group whose quantifier maximum is above 1, nor in any atom inside such a group;
 * - an atom with a variable count (min < max): its class is disjoint from follow(atom);
 * - a group with a variable count: its first characters are disjoint from follow(group); inside it, each
 *   alternative is checked against follow(group) plus (if it repeats) the group's own first characters;
 * - no group alternative can match empty; a group of several alternatives has plain-literal, prefix-free
 *   alternatives, or alternatives whose first-character sets are pairwise disjoint.
 *
 * So, for example: `Posted\s+on\s+\d+(?:st|nd|rd|th)\s+(?:January|February|March)` is accepted,
 * `\d+(?:[.,]\d+)*` is accepted inside a pattern that starts with a literal, `Home[^\S\n]+About` is
 * accepted; `\s*\s*x`, `(a+)+$`, `(?:a|a)*`, `x\w+\d`, `(\w)\1` and `(?<=a)b` are refused.
 * A pattern that starts with a mutable token (a number, a date) must start at the next literal token instead.
 */
import { RULES_MAX_PATTERN_LENGTH } from "../config";
import { areDisjoint, type CharSet, EMPTY_SET, union } from "./char-set";
import { firstSet, isNullable, parsePattern, type PatternElement } from "./pattern-syntax";

export type PatternSafety = { safe: true } | { safe: false; reason: string };

export function checkPatternSafety(pattern: string, maxLength: number = RULES_MAX_PATTERN_LENGTH): PatternSafety {
  if (typeof pattern !== "string" || pattern.length === 0) return { safe: false, reason: "empty pattern" };
  if (pattern.length > maxLength) {
    return { safe: false, reason: `pattern of ${pattern.length} characters exceeds ${maxLength}` };
  }
  const parsed = parsePattern(pattern);
  if (!parsed.ok) return { safe: false, reason: parsed.reason };
  const start = checkStart(parsed.elements);
  if (start !== null) return { safe: false, reason: start };
  const problem = checkSequence(parsed.elements, EMPTY_SET);
  return problem === null ? { safe: true } : { safe: false, reason: problem };
}

/**
 * A fragment of a pattern (a rule set's mutable pattern, written inside rules): the grammar and condition 1, the
 * determinism that keeps each attempt linear. Condition 2 (the start) belongs to a whole pattern, whose first
 * element is a literal token, so a fragment may start with a repeated class (`\d+`).
 */
export function checkFragmentSafety(pattern: string, maxLength: number = RULES_MAX_PATTERN_LENGTH): PatternSafety {
  if (typeof pattern !== "string" || pattern.length === 0) return { safe: false, reason: "empty pattern" };
  if (pattern.length > maxLength) return { safe: false, reason: `pattern of ${pattern.length} characters exceeds ${maxLength}` };
  const parsed = parsePattern(pattern);
  if (!parsed.ok) return { safe: false, reason: parsed.reason };
  const problem = checkSequence(parsed.elements, EMPTY_SET);
  return problem === null ? { safe: true } : { safe: false, reason: problem };
}

/** Condition 2: the first element is unrepeated and not empty-matching, its first characters in no repeated class. */
function checkStart(elements: readonly PatternElement[]): string | null {
  const first = elements[0];
  if (first.min !== 1 || first.max !== 1 || isNullable(first)) {
    return "the pattern must start with an element that has no quantifier (a literal token)";
  }
  const repeated = repeatedSet(elements, false);
  if (!areDisjoint(firstSet(first), repeated)) {
    return "the first character of the pattern can also be matched by a repeated class";
  }
  return null;
}

/** Union of the classes that can match more than once: atoms with max > 1 and everything inside repeated groups. */
function repeatedSet(elements: readonly PatternElement[], insideRepeated: boolean): CharSet {
  let set: CharSet = EMPTY_SET;
  for (const element of elements) {
    const repeats = insideRepeated || element.max > 1;
    if (element.kind === "atom") {
      if (repeats) set = union(set, element.set);
      continue;
    }
    for (const alternative of element.alternatives) set = union(set, repeatedSet(alternative, repeats));
  }
  return set;
}

/** Condition 1 over a sequence, given what may follow the sequence; returns the first problem found. */
function checkSequence(elements: readonly PatternElement[], followAfter: CharSet): string | null {
  let follow = followAfter;
  for (let index = elements.length - 1; index >= 0; index -= 1) {
    const element = elements[index];
    const problem = element.kind === "atom" ? checkAtom(element.set, element, follow) : checkGroup(element, follow);
    if (problem !== null) return problem;
    follow = isNullable(element) ? union(firstSet(element), follow) : firstSet(element);
  }
  return null;
}

function checkAtom(set: CharSet, element: PatternElement, follow: CharSet): string | null {
  if (element.min === element.max || areDisjoint(set, follow)) return null;
  return "a quantified class overlaps what can follow it (adjacent quantifiers must have disjoint classes)";
}

function checkGroup(group: PatternElement & { kind: "group" }, follow: CharSet): string | null {
  const first = firstSet(group);
  if (group.min !== group.max && !areDisjoint(first, follow)) {
    return "an optional or repeated group overlaps what can follow it";
  }
  if (group.alternatives.some((alternative) => alternative.every(isNullable))) {
    return "a group alternative can match the empty string";
  }
  if (group.alternatives.length > 1 && !alternativesAreExclusive(group.alternatives)) {
    return "group alternatives are neither prefix-free literals nor start with distinct characters";
  }
  const innerFollow = group.max > 1 ? union(first, follow) : follow;
  for (const alternative of group.alternatives) {
    const problem = checkSequence(alternative, innerFollow);
    if (problem !== null) return problem;
  }
  return null;
}

/** At most one alternative can match at a position: prefix-free literals, or pairwise disjoint first sets. */
function alternativesAreExclusive(alternatives: readonly (readonly PatternElement[])[]): boolean {
  const literals = alternatives.map(literalText);
  if (literals.every((literal) => literal !== null)) {
    const sorted = (literals as string[]).slice().sort();
    for (let index = 1; index < sorted.length; index += 1) {
      if (sorted[index].startsWith(sorted[index - 1])) return false;
    }
    return true;
  }
  for (let left = 0; left < alternatives.length; left += 1) {
    for (let right = left + 1; right < alternatives.length; right += 1) {
      const leftFirst = firstSet({ kind: "group", alternatives: [alternatives[left]], min: 1, max: 1 });
      const rightFirst = firstSet({ kind: "group", alternatives: [alternatives[right]], min: 1, max: 1 });
      if (!areDisjoint(leftFirst, rightFirst)) return false;
    }
  }
  return true;
}

/** The literal string an alternative stands for, or null if it has classes or quantifiers. */
function literalText(alternative: readonly PatternElement[]): string | null {
  let text = "";
  for (const element of alternative) {
    if (element.kind !== "atom" || element.min !== 1 || element.max !== 1) return null;
    if (element.set.length !== 2 || element.set[0] !== element.set[1]) return null;
    text += String.fromCharCode(element.set[0]);
  }
  return text;
}
