/**
 * Sets of UTF-16 code units, as the pattern safety check needs them: exact, so that "disjoint" is a proof.
 * A set is a sorted list of inclusive [low, high] ranges, flattened, disjoint and not touching.
 * Built while checking and compiling patterns, so plain arrays are fine; matching reads one only for a code unit
 * outside ASCII that may follow a rule's literal (prefixed-rules.ts keeps a table for the ASCII ones).
 */
export type CharSet = readonly number[];

export const CODE_UNIT_MAX = 0xffff;

export const EMPTY_SET: CharSet = [];

/** The set of one code unit. */
export function singleton(code: number): CharSet {
  return [code, code];
}

/** Normalises any list of [low, high] pairs into a sorted, merged set. */
export function fromRanges(pairs: readonly number[]): CharSet {
  const ranges: Array<[number, number]> = [];
  for (let index = 0; index < pairs.length; index += 2) {
    ranges.push([pairs[index], pairs[index + 1]]);
  }
  ranges.sort((left, right) => left[0] - right[0]);
  const merged: number[] = [];
  for (const [low, high] of ranges) {
    const last = merged.length - 1;
    if (last > 0 && low <= merged[last] + 1) {
      merged[last] = Math.max(merged[last], high);
    } else {
      merged.push(low, high);
    }
  }
  return merged;
}

/** Union of two sets by one merge walk over their sorted ranges. */
export function union(left: CharSet, right: CharSet): CharSet {
  if (left.length === 0) return right;
  if (right.length === 0) return left;
  const merged: number[] = [];
  let leftIndex = 0;
  let rightIndex = 0;
  while (leftIndex < left.length || rightIndex < right.length) {
    const takeLeft = rightIndex >= right.length || (leftIndex < left.length && left[leftIndex] <= right[rightIndex]);
    const low = takeLeft ? left[leftIndex] : right[rightIndex];
    const high = takeLeft ? left[leftIndex + 1] : right[rightIndex + 1];
    if (takeLeft) leftIndex += 2;
    else rightIndex += 2;
    const last = merged.length - 1;
    if (last > 0 && low <= merged[last] + 1) merged[last] = Math.max(merged[last], high);
    else merged.push(low, high);
  }
  return merged;
}

export function complement(set: CharSet): CharSet {
  const result: number[] = [];
  let next = 0;
  for (let index = 0; index < set.length; index += 2) {
    if (set[index] > next) result.push(next, set[index] - 1);
    next = set[index + 1] + 1;
  }
  if (next <= CODE_UNIT_MAX) result.push(next, CODE_UNIT_MAX);
  return result;
}

/** True when no code unit is in both sets (two-pointer walk over the sorted ranges). */
export function areDisjoint(left: CharSet, right: CharSet): boolean {
  let leftIndex = 0;
  let rightIndex = 0;
  while (leftIndex < left.length && rightIndex < right.length) {
    if (left[leftIndex + 1] < right[rightIndex]) {
      leftIndex += 2;
    } else if (right[rightIndex + 1] < left[leftIndex]) {
      rightIndex += 2;
    } else {
      return false;
    }
  }
  return true;
}

export function contains(set: CharSet, code: number): boolean {
  for (let index = 0; index < set.length; index += 2) {
    if (code < set[index]) return false;
    if (code <= set[index + 1]) return true;
  }
  return false;
}

/** `\d`: ASCII digits. */
export const DIGIT_SET: CharSet = [0x30, 0x39];
/** `\w`: ASCII letters, digits and underscore (no `u`/`i` flags are ever used, so this is exact). */
export const WORD_SET: CharSet = fromRanges([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]);
/** `\s`: ECMAScript WhiteSpace and LineTerminator code points (ECMA-262, CharacterClassEscape). */
export const SPACE_SET: CharSet = fromRanges([
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f,
  0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff,
]);
/** `.` without the `s` flag: everything but the line terminators. */
export const DOT_SET: CharSet = complement(fromRanges([0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029]));
