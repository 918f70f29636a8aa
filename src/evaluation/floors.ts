/**
 * The eval gate's floors: the shipped pipeline's out-of-fold scores per set, as 4-digit numbers, stored with
 * a digest of the data they were measured on. A floor is raised whenever a score rises; lowering one takes
 * an explicit reason, which is kept in the file beside the change.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_ROOT } from "./dataset";

/** Scores pinned per row ("set" or "set[8+ page sites]", then system name). */
export type FloorValues = Record<string, Record<string, { readonly f1: number; readonly tokenF1: number }>>;

export interface FloorsFile {
  /** SHA-256 of the data the floors were measured on (see dataDigest). */
  readonly digest: string;
  /** How the shipped model was cross-validated when the floors were measured. */
  readonly protocol: string;
  readonly floors: FloorValues;
  /** Every lowering, with its reason. */
  readonly lowered: readonly { readonly date: string; readonly row: string; readonly from: number; readonly to: number; readonly why: string }[];
}

/**
 * Least pages of a page kind (wceb2026's types) for a floor of its own: a kind with fewer (blog: 1 page) moves with a
 * single page, and is floored only within its set's row. 20 is where issue 43 asks each kind to beat the references.
 */
export const KIND_FLOOR_MIN_PAGES = 20;

/** How far a score may fall below its floor before the gate fails (run-to-run float noise is far smaller). */
export const FLOOR_EPSILON = 0.0005;

/** SHA-256 over each set's index and gold texts (pages are named by the index; gold is what scores). */
export function dataDigest(sets: readonly string[]): string {
  const hash = createHash("sha256");
  for (const set of sets) {
    const index = readFileSync(join(DATA_ROOT, set, "index.jsonl"), "utf8");
    hash.update(`${set}\n${index}`);
    for (const line of index.split("\n")) {
      const gold = line.trim() === "" ? undefined : (JSON.parse(line) as { gold?: string }).gold;
      if (gold) hash.update(readFileSync(join(DATA_ROOT, set, gold)));
    }
  }
  return hash.digest("hex");
}

export function roundFloor(value: number): number {
  return Math.floor(value * 10_000) / 10_000;
}

/** Rows whose measured score is below its floor by more than FLOOR_EPSILON, as readable lines. */
export function belowFloors(file: FloorsFile, measured: FloorValues): string[] {
  const below: string[] = [];
  for (const [row, systems] of Object.entries(file.floors)) {
    for (const [system, floor] of Object.entries(systems)) {
      const score = measured[row]?.[system];
      if (!score) {
        below.push(`${row} ${system}: not measured`);
        continue;
      }
      if (score.f1 < floor.f1 - FLOOR_EPSILON) below.push(`${row} ${system}: F1 ${score.f1.toFixed(4)} < floor ${floor.f1.toFixed(4)}`);
      if (score.tokenF1 < floor.tokenF1 - FLOOR_EPSILON) below.push(`${row} ${system}: token F1 ${score.tokenF1.toFixed(4)} < floor ${floor.tokenF1.toFixed(4)}`);
    }
  }
  return below;
}

/**
 * New floors from measured scores: each floor rises to its measured score; one that would fall is kept
 * unless `lowerWhy` gives a reason, and then the lowering is recorded. Returns the refused lowerings too.
 */
export function nextFloors(old: FloorsFile | null, measured: FloorValues, digest: string, protocol: string, lowerWhy: string | null): { file: FloorsFile; refused: string[] } {
  const floors: FloorValues = {};
  const refused: string[] = [];
  const lowered = [...(old?.lowered ?? [])];
  const date = new Date().toISOString().slice(0, 10);
  for (const [row, systems] of Object.entries(measured)) {
    floors[row] = {};
    for (const [system, score] of Object.entries(systems)) {
      const previous = old?.digest === digest ? old.floors[row]?.[system] : undefined;
      const next = { f1: roundFloor(score.f1), tokenF1: roundFloor(score.tokenF1) };
      if (previous && (next.f1 < previous.f1 || next.tokenF1 < previous.tokenF1)) {
        if (lowerWhy === null) {
          refused.push(`${row} ${system}: F1 ${previous.f1.toFixed(4)} → ${next.f1.toFixed(4)}, token F1 ${previous.tokenF1.toFixed(4)} → ${next.tokenF1.toFixed(4)}`);
          floors[row][system] = previous;
          continue;
        }
        // One record per figure that falls: the F1 under the row's name, the token F1 under "… token F1".
        if (next.f1 < previous.f1) lowered.push({ date, row: `${row} ${system}`, from: previous.f1, to: next.f1, why: lowerWhy });
        if (next.tokenF1 < previous.tokenF1) lowered.push({ date, row: `${row} ${system} token F1`, from: previous.tokenF1, to: next.tokenF1, why: lowerWhy });
      }
      floors[row][system] = next;
    }
  }
  return { file: { digest, protocol, floors, lowered }, refused };
}

/** The set a floors row belongs to: "dragnet", "dragnet[8+ page sites]" and "wceb2026/forum" name their set first. */
export function setOfRow(row: string): string {
  return row.split(/[[/]/)[0];
}

/**
 * The old floors as floors of the current data: unchanged where their digest is the current one; carried to the
 * current digest where a set was added and the sets they were measured on are unchanged (their digest, over those
 * sets in the current order, is the old one), so that adding a set never drops or lowers an older set's floor;
 * null where the data under them changed (they are measured afresh).
 */
export function carriedFloors(old: FloorsFile | null, sets: readonly string[], digest: string, digestOf: (sets: readonly string[]) => string): FloorsFile | null {
  if (old === null) return null;
  if (old.digest === digest) return old;
  const named = new Set(Object.keys(old.floors).map(setOfRow));
  const earlier = sets.filter((set) => named.has(set));
  if (earlier.length !== named.size || digestOf(earlier) !== old.digest) return null;
  return { ...old, digest };
}
