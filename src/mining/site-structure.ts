/**
 * The structural miner over one site's mined pages: the text levels, the pages' structures, a choice made on two
 * thirds of the pages and checked on the other third (structure.ts), and the rule set with its selectors.
 */
import type { PageModel } from "../page/index";
import { RULESET_VERSION_SELECTORS, type DefaultModeChoice, type RuleSet } from "../rules/index";
import { chooseDefaultMode } from "./mode-choice";
import type { SiteMining } from "./mine-site";
import { creditListedText, readStructures, type PageStructure } from "./page-structure";
import { chooseStructure, groupStatistics, holdBackCheck, type HoldBackCheck, type StructureChoice } from "./structure";
import { textLevels } from "./text-levels";

export interface StructureMining {
  /** Pages the selectors were chosen on, and pages held back to check them. */
  readonly choosing: number;
  readonly heldBack: number;
  readonly choice: StructureChoice;
  readonly check: HoldBackCheck;
  /** The pages' structures held back (the default mode is measured on them). */
  readonly heldBackPages: readonly PageStructure[];
}

/** Every third page is held back (the choice needs a majority of pages, the check at least one page). */
const HOLD_BACK_EVERY = 3;

export function mineStructure(mining: SiteMining, pages: readonly PageModel[]): StructureMining {
  const levels = textLevels(mining, pages.map((page) => page.text));
  const all = pages.map((_page, index) => index);
  const structures = readStructures(pages, levels, all);
  creditListedText(mining, structures);
  const choosing = structures.filter((_structure, index) => index % HOLD_BACK_EVERY !== HOLD_BACK_EVERY - 1);
  const heldBack = structures.filter((_structure, index) => index % HOLD_BACK_EVERY === HOLD_BACK_EVERY - 1);
  const choice = chooseStructure(groupStatistics(choosing), choosing);
  const check = heldBack.length === 0 ? { strip: [], main: [], keep: [], dropped: ["no page to hold back"] } : holdBackCheck(choice, structures);
  return { choosing: choosing.length, heldBack: heldBack.length, choice, check, heldBackPages: heldBack };
}

/** The rule set with the checked selectors and the default mode measured on the held-back pages (version 2). */
export function withStructure(ruleSet: RuleSet, structure: StructureMining): RuleSet {
  const { strip, main, keep } = structure.check;
  const selected: RuleSet = {
    ...ruleSet,
    version: RULESET_VERSION_SELECTORS,
    ...(strip.length > 0 ? { strip } : {}),
    ...(main.length > 0 ? { main } : {}),
    ...(keep.length > 0 ? { keep } : {}),
  };
  const defaultMode: DefaultModeChoice = chooseDefaultMode(selected, structure.heldBackPages, structure.choice.stripShare);
  return { ...selected, defaultMode };
}
