/**
 * The rules whose every match starts with a literal (CompiledRule.prefixed), matched in one pass over the text: where
 * a position starts some rule's literal, that rule's sticky regex is tried there. Rules that start alike (a site whose
 * comments each begin "— March 3rd, 2010, 10:21 am", then a reader's first words) are tried behind gates: one regex for
 * all of them, then one for each half, and so on down to the rule, so that a position where none matches costs one try
 * and one where one rule matches about two per halving, not one per rule. (Where every rule of a group matches at a
 * position, the gates add about log2 of its size in tries there; the page's time budget bounds the pass as before.)
 */
import { RULES_MAX_RULE_SET_CHARACTERS } from "../config";
import { contains, EMPTY_SET, union, type CharSet } from "./char-set";
import type { CompiledRuleSet } from "./compile";
import { topLevelElementEnds } from "./pattern-syntax";

/** Text positions between two looks at the clock. */
const EXPIRY_CHECK_POSITIONS = 1 << 16;

/**
 * Tries the running rules' sticky regexes where their literals stand, in one pass: positions go in order and a rule is
 * not tried again before the end of its last match, so each rule finds what its global regex would (a match can start
 * only where its literal stands, and from one start the sticky regex finds what the global one would), with one pass
 * for all of them where each alone scanned the whole text: a site of 166 rules ran them all on its every page.
 */
export function matchPrefixedRules<Stop>(
  compiled: CompiledRuleSet, text: string, running: Uint8Array, add: (start: number, end: number) => Stop | null, expired: (() => boolean) | undefined,
): Stop | "time-budget" | null {
  const index = prefixIndex(compiled);
  const { first, byCode, byPair, pairs } = index;
  if (byCode.size + byPair.size === 0) return null;
  const rules = compiled.rules;
  const nextFrom = new Int32Array(rules.length); // rule → where it may match next (the end of its last match)
  /** Tries rule `rule` at `at` (where its literal stands); says why matching stops (what `add` said), or null. */
  const tryRule = (rule: number, at: number): Stop | null => {
    if (running[rule] === 0 || at < nextFrom[rule]) return null;
    const { sticky } = rules[rule].prefixed!;
    sticky.lastIndex = at;
    if (sticky.exec(text) === null) return null;
    nextFrom[rule] = sticky.lastIndex;
    return add(at, sticky.lastIndex);
  };
  /** Tries the rules of the group's node `node` (its rules lo to hi) at `at`, behind their gate. */
  const tryNode = (group: LiteralGroup, node: number, lo: number, hi: number, at: number): Stop | null => {
    if (hi - lo < GATE_MIN_RULES) {
      for (let rule = lo; rule < hi; rule++) {
        const stop = tryRule(group.rules[rule], at);
        if (stop !== null) return stop;
      }
      return null;
    }
    const gate = gateOf(compiled, index, group, node, lo, hi);
    if (gate !== null) {
      gate.lastIndex = at;
      if (!gate.test(text)) return null; // no rule of the node matches here
    }
    const middle = (lo + hi) >> 1;
    return tryNode(group, 2 * node, lo, middle, at) ?? tryNode(group, 2 * node + 1, middle, hi, at);
  };
  /** Tries the rules whose literal stands at `at`; says why matching stops, or null. */
  const tryAt = (groups: readonly LiteralGroup[] | undefined, at: number): Stop | null => {
    if (groups === undefined) return null;
    for (const group of groups) {
      if (!text.startsWith(group.literal, at) || (group.follows !== null && !group.follows.has(text.charCodeAt(at + group.literal.length)))) continue;
      const stop = tryNode(group, 1, 0, group.rules.length, at);
      if (stop !== null) return stop;
    }
    return null;
  };
  for (let at = 0; at < text.length; at++) {
    if ((at & (EXPIRY_CHECK_POSITIONS - 1)) === EXPIRY_CHECK_POSITIONS - 1 && expired?.() === true) return "time-budget";
    const code = text.charCodeAt(at);
    const starts = first[code & (FIRST_SLOTS - 1)];
    if (starts === 0) continue;
    let stop = (starts & STARTS_ONE) !== 0 ? tryAt(byCode.get(code), at) : null;
    if (stop === null && (starts & STARTS_LONGER) !== 0 && at + 1 < text.length) {
      const next = text.charCodeAt(at + 1);
      if (pairs[pairSlot(code, next)] === 1) stop = tryAt(byPair.get(code * 0x10000 + next), at);
    }
    if (stop !== null) return stop;
  }
  return null;
}

/** Where the prefixed rules' literals may start: by first code unit (a quick test), then by the first two. */
interface PrefixIndex {
  /** Code unit's slot (FIRST_SLOTS) → STARTS_ONE if some literal is a unit of that slot alone, | STARTS_LONGER if a
   * longer one starts with one. */
  readonly first: Uint8Array;
  /** Code unit → the rules whose literal is it alone. */
  readonly byCode: Map<number, LiteralGroup[]>;
  /** First code unit × 0x10000 + second → the rules whose longer literal starts with both, by literal. */
  readonly byPair: Map<number, LiteralGroup[]>;
  /** pairSlot of a longer literal's first two code units → 1: most positions whose first unit starts one are ruled out
   * here, without a look in byPair. */
  readonly pairs: Uint8Array;
  /** Code units of gate source that may still be compiled for the set (GATE_BUDGET_CHARACTERS at first). */
  gateCharactersLeft: number;
}

/**
 * The rules of one literal, tried where it stands: their ordinals in compiled.rules (sorted by pattern, so that rules
 * written alike are neighbours), and the gates of a segment tree over them (node 1 holds them all, node k's halves are
 * 2k and 2k + 1), each made when first needed; null for a node whose gate would be too long, or past the set's gate budget.
 */
interface LiteralGroup {
  readonly literal: string;
  /** What may follow the literal in a match of one of the rules (null: anything, or the end of the text). */
  follows: FollowingUnits | null;
  readonly rules: number[];
  readonly gates: Map<number, RegExp | null>;
}

/**
 * Code units that may come after a literal: most rules' literal is a word the text holds inside other words too ("in",
 * "to", "the"), followed by a separator, and a test of the next code unit saves the regex's try there.
 */
class FollowingUnits {
  private readonly ascii = new Uint8Array(128);

  constructor(private readonly set: CharSet) {
    for (let code = 0; code < 128; code++) this.ascii[code] = contains(set, code) ? 1 : 0;
  }

  /** Whether `code` (NaN past the end of the text) may follow. */
  has(code: number): boolean {
    return code < 128 ? this.ascii[code] === 1 : contains(this.set, code);
  }
}

/**
 * Slots of PrefixIndex.first: a code unit's low 12 bits. Units that share them share a slot (in the maps only the
 * literal's own unit is found); a table of every unit would hold 64 KB per cached rule set.
 */
const FIRST_SLOTS = 1 << 12;
/** Slots of PrefixIndex.pairs: two code units hashed into 12 bits (a set has tens of literals, so few positions collide). */
const PAIR_SLOTS = 1 << 12;

function pairSlot(first: number, second: number): number {
  return (Math.imul(first, 31) + second) & (PAIR_SLOTS - 1);
}

const STARTS_ONE = 1;
const STARTS_LONGER = 2;
/** Fewest rules behind a gate: where a rule matches, its gates are tried as well, and for a few rules they cost more than they save. */
const GATE_MIN_RULES = 4;
/** Longest gate source (code units): a group of many long rules tries them one by one instead of compiling a huge regex. */
const GATE_MAX_LENGTH = 65_536;
/**
 * Most gate source compiled for one rule set (code units): a level of the tree repeats the set's patterns once, so a
 * set of many long rules would otherwise compile several times its own size. Past it, rules are tried without gates.
 */
const GATE_BUDGET_CHARACTERS = RULES_MAX_RULE_SET_CHARACTERS;

/** Each compiled set's prefix index, made on its first page. */
const prefixIndexes = new WeakMap<CompiledRuleSet, PrefixIndex>();

function prefixIndex(compiled: CompiledRuleSet): PrefixIndex {
  let index = prefixIndexes.get(compiled);
  if (index !== undefined) return index;
  const first = new Uint8Array(FIRST_SLOTS);
  const byCode = new Map<number, LiteralGroup[]>();
  const byPair = new Map<number, LiteralGroup[]>();
  const pairs = new Uint8Array(PAIR_SLOTS);
  compiled.rules.forEach(({ prefixed }, rule) => {
    if (prefixed === null) return;
    const { prefix } = prefixed;
    const code = prefix.charCodeAt(0);
    const one = prefix.length === 1;
    first[code & (FIRST_SLOTS - 1)] |= one ? STARTS_ONE : STARTS_LONGER;
    if (!one) pairs[pairSlot(code, prefix.charCodeAt(1))] = 1;
    const [map, key] = one ? [byCode, code] : [byPair, code * 0x10000 + prefix.charCodeAt(1)];
    const groups = map.get(key) ?? [];
    map.set(key, groups);
    const group = groups.find((candidate) => candidate.literal === prefix);
    if (group === undefined) groups.push({ literal: prefix, follows: null, rules: [rule], gates: new Map() });
    else group.rules.push(rule);
  });
  for (const groups of [...byCode.values(), ...byPair.values()]) {
    for (const group of groups) {
      group.rules.sort((a, b) => (compiled.rules[a].pattern < compiled.rules[b].pattern ? -1 : 1));
      const sets = group.rules.map((rule) => compiled.rules[rule].prefixed!.follows);
      if (!sets.includes(null)) group.follows = new FollowingUnits(sets.reduce((all, set) => union(all!, set!), EMPTY_SET)!);
    }
  }
  prefixIndexes.set(compiled, (index = { first, byCode, byPair, pairs, gateCharactersLeft: GATE_BUDGET_CHARACTERS }));
  return index;
}

/** The gate of a group's node (its rules lo to hi), made on first use. */
function gateOf(compiled: CompiledRuleSet, index: PrefixIndex, group: LiteralGroup, node: number, lo: number, hi: number): RegExp | null {
  let gate = group.gates.get(node);
  if (gate !== undefined) return gate;
  const source = gateSource(group.rules.slice(lo, hi).map((rule) => compiled.rules[rule].pattern));
  gate = source === null || source.length > Math.min(GATE_MAX_LENGTH, index.gateCharactersLeft) ? null : new RegExp(source, "y");
  if (gate !== null) index.gateCharactersLeft -= source!.length;
  group.gates.set(node, gate);
  return gate;
}

/**
 * The source of a regex that matches at a position exactly when one of the patterns does: their common leading elements
 * once, then the rest of each as alternatives (P(?:R1|R2) matches where P R1 or P R2 does; its work at a position is at
 * most theirs). Null when a pattern does not parse.
 */
function gateSource(patterns: readonly string[]): string | null {
  const ends = patterns.map(topLevelElementEnds);
  if (ends.some((end) => end === null)) return null;
  const elementEnds = ends as number[][];
  // The leading elements written alike in every pattern: each ends at the same offset, with the same source since the last.
  let cut = 0;
  for (const [element, end] of elementEnds[0].entries()) {
    const source = patterns[0].slice(cut, end);
    if (!elementEnds.every((own, i) => own[element] === end && patterns[i].startsWith(source, cut))) break;
    cut = end;
  }
  const rests = [...new Set(patterns.map((pattern) => pattern.slice(cut)))];
  return `${patterns[0].slice(0, cut)}(?:${rests.join("|")})`;
}
