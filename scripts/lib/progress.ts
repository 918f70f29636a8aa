/**
 * Progress of a long run, on stderr only (stdout stays for results, so it can be redirected or piped): on a
 * terminal one line redrawn in place; elsewhere (a log file, CI) a plain line at every tenth of the run.
 */
export interface Progress {
  /** `done` of the total are finished; `detail` names the current item. */
  step(done: number, detail?: string): void;
  /** Ends the redrawn line (on a terminal). */
  finish(): void;
}

export interface ProgressOptions {
  /** Runs with fewer items than this show nothing (they finish before a bar would help). Default 0. */
  readonly minimum?: number;
  /** Where to write; default process.stderr. */
  readonly stream?: NodeJS.WriteStream;
}

const BAR_WIDTH = 30;

export function createProgress(label: string, total: number, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const enabled = total > 0 && total >= (options.minimum ?? 0);
  const terminal = stream.isTTY === true;
  const started = performance.now();
  let lastTenth = -1;
  let drawn = false;
  return {
    step(done, detail = "") {
      if (!enabled) return;
      const tenth = Math.floor((done * 10) / total);
      if (!terminal && tenth === lastTenth) return;
      lastTenth = tenth;
      const filled = Math.min(BAR_WIDTH, Math.round((done / total) * BAR_WIDTH));
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const line = `${label.padEnd(10)} [${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}] ${done}/${total} ${seconds}s ${detail}`.trimEnd();
      if (terminal) {
        const columns = (stream.columns ?? 100) - 1;
        stream.write(`\r${line.slice(0, columns).padEnd(columns)}`);
        drawn = true;
      } else {
        stream.write(`${line}\n`);
      }
    },
    finish() {
      if (drawn) stream.write("\n");
      drawn = false;
    },
  };
}
