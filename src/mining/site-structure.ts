/**
 * The structural miner over one site's mined pages: the text levels, the pages' structures, a choice made on two
 * thirds of the pages and checked on all of them (structure.ts), and the rule set with its selectors.
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

/**
 * With two pages none is held back: both choose and the check runs on both. Holding one back would leave a choice
 * made on a single page, so such a site had no selectors at all; checked on its two pages they still never take a
 * content block of either. On the sites of 4 to 7 pages of l3s-gn1 (rules mined on every other page, npm run mine:eval
 * -- l3s-gn1 --min-pages 4), rules alone went from 0.758 to 0.845 F1 (precision 0.645 to 0.767, recall 0.984 to
 * 0.977: reader comments the gold keeps and the strip selectors leave out).
 */
function heldBackPage(index: number, pageCount: number): boolean {
  return pageCount > 2 && index % HOLD_BACK_EVERY === HOLD_BACK_EVERY - 1;
}

export function mineStructure(mining: SiteMining, pages: readonly PageModel[]): StructureMining {
  const levels = textLevels(mining, pages.map((page) => page.text));
  const all = pages.map((_page, index) => index);
  const structures = readStructures(pages, levels, all);
  creditListedText(mining, structures);
  const choosing = structures.filter((_structure, index) => !heldBackPage(index, structures.length));
  const heldBack = structures.filter((_structure, index) => heldBackPage(index, structures.length));
  const choice = chooseStructure(groupStatistics(choosing), choosing);
  const check = structures.length < 2 ? { strip: [], main: [], keep: [], dropped: ["one page: nothing repeats"] } : holdBackCheck(choice, structures);
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
