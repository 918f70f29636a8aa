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
