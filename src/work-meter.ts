/**
 * Work counted while one page is cleaned, against the page's budget (config CLEAN_WORK_BUDGET_UNITS). Deployed
 * workerd advances its clock only across I/O, so a page cleaned without I/O sees no time pass: work is counted
 * instead, in units of one step of a loop over the page (a scanner event, a block, a text node, a block at one
 * smoothing level, a writer's event or output piece, 64 characters scanned or copied). Every stage charges what
 * it did, and the writers check as they walk, so a page past its budget stops where it is and is passed through
 * with "time-budget", whichever stage it is in.
 */
export class WorkMeter {
  private spent = 0;

  constructor(readonly limit: number) {}

  /** Counts `units` of work; whether the budget still holds. */
  spend(units: number): boolean {
    this.spent += units;
    return this.spent <= this.limit;
  }

  get exhausted(): boolean {
    return this.spent > this.limit;
  }

  /** Units counted so far. */
  get units(): number {
    return this.spent;
  }
}

/** Characters scanned or copied per unit of work. */
export const CHARACTERS_PER_UNIT = 64;
