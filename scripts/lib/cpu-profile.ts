/**
 * What a V8 CPU profile (the inspector's Profiler.stop result, the .cpuprofile format) says in a few lines: the
 * functions that took the most time by themselves, and with what they call.
 */

/** The parts of a .cpuprofile read here. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
    readonly children?: readonly number[];
  }[];
  /** Node id of each sample's innermost frame. */
  readonly samples: readonly number[];
  /** Microseconds before each sample. */
  readonly timeDeltas: readonly number[];
}

export interface FunctionTime {
  /** Function name and the line of its definition (1-based) in its script. */
  readonly name: string;
  /** Microseconds with the function innermost. */
  readonly self: number;
  /** Microseconds with the function anywhere on the stack (counted once however often it recurs). */
  readonly total: number;
}

/** The profiler's own entries: not time of any function of the page's code. */
const NOT_CODE = new Set(["(root)", "(idle)", "(program)", "(garbage collector)"]);

/** Time by function, most self time first; `busy` is every sample's time but idle's. */
export function functionTimes(profile: CpuProfile): { functions: FunctionTime[]; busy: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const nameOf = (id: number): string => {
    const { functionName, lineNumber } = byId.get(id)!.callFrame;
    return `${functionName || "(anonymous)"}:${lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    if (byId.get(id)?.callFrame.functionName === "(idle)") return;
    busy += delta;
    const innermost = nameOf(id);
    self.set(innermost, (self.get(innermost) ?? 0) + delta);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const name = nameOf(at);
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + delta);
    }
  });
  const functions = [...total.entries()]
    .filter(([name]) => !NOT_CODE.has(name.slice(0, name.lastIndexOf(":"))))
    .map(([name, time]) => ({ name, self: self.get(name) ?? 0, total: time }))
    .sort((a, b) => b.self - a.self || b.total - a.total);
  return { functions, busy };
}

/** Two tables of the `top` functions, by self time and by total time, as shares of the busy time. */
export function profileReport(profile: CpuProfile, top: number): string {
  const { functions, busy } = functionTimes(profile);
  const share = (microseconds: number): string => `${((100 * microseconds) / busy).toFixed(1).padStart(5)}%`;
  const row = (entry: FunctionTime): string => `  ${share(entry.self)} ${share(entry.total)}  ${entry.name}`;
  const byTotal = [...functions].sort((a, b) => b.total - a.total);
  return [
    `${(busy / 1000).toFixed(0)} ms of samples (idle left out); self, total, function:line in the bundled Worker`,
    "by self time:",
    ...functions.slice(0, top).map(row),
    "by total time (with what it calls):",
    ...byTotal.slice(0, top).map(row),
  ].join("\n");
}
