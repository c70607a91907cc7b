/**
 * `--progress`: progress as plain log lines on stderr, for scripts, cron, systemd and CI (no terminal):
 * one line when a step starts, a line every few seconds or every tenth of a step that counts what it did,
 * and a last line with the elapsed time. No carriage return, no colour: every line stands on its own.
 *
 *   physpay: build: [1/8] reading approved reports (reports.db)
 *   physpay: import reports: [2/2] importing the rows of reports.csv: 40% of 12.3 MB, 40,000 rows
 *   physpay: build: finished in 12.3 s
 *
 * The wording of a line is the pure function progressLine; lineProgress is the thin writer around it (its
 * clock is given, so tests see fixed times).
 */

/** The --help text of --progress (build and import commands). */
export const PROGRESS_HELP = 'write progress to stderr as plain log lines (one per step, counts every few seconds, the elapsed time at the end), also when stderr is not a terminal';

/** What a progress line says. */
export type ProgressEvent =
  /** a step starts */
  | { kind: 'stage'; step: number; steps: number; name: string; detail?: string }
  /** `done` of `total` items of the current step (`unit` names them, e.g. "rows") */
  | { kind: 'count'; step: number; steps: number; name: string; done: number; total: number; unit?: string }
  /** `done` of `size` bytes of a file read, `rows` rows so far */
  | { kind: 'bytes'; step: number; steps: number; name: string; done: number; size: number; rows: number }
  /** the command finished (`ok`) or stopped on an error, `elapsedMs` after it started */
  | { kind: 'end'; ok: boolean; elapsedMs: number };

const num = (n: number) => n.toLocaleString('en-US');
const percent = (done: number, total: number) => Math.min(100, Math.floor((100 * done) / Math.max(total, 1)));
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** One progress line of `command` ("build", "import reports"), without a line end. */
export function progressLine(command: string, e: ProgressEvent): string {
  const head = `physpay: ${command}:`;
  switch (e.kind) {
    case 'stage':
      return `${head} [${e.step}/${e.steps}] ${e.name}${e.detail ? ` (${e.detail})` : ''}`;
    case 'count':
      return `${head} [${e.step}/${e.steps}] ${e.name}: ${num(e.done)} of ${num(e.total)}${e.unit ? ` ${e.unit}` : ''} (${percent(e.done, e.total)}%)`;
    case 'bytes':
      return `${head} [${e.step}/${e.steps}] ${e.name}: ${percent(e.done, e.size)}% of ${mb(e.size)}, ${num(e.rows)} ${e.rows === 1 ? 'row' : 'rows'}`;
    case 'end':
      return `${head} ${e.ok ? 'finished' : 'stopped'} after ${(e.elapsedMs / 1000).toFixed(1)} s`;
  }
}

export interface LineProgressOptions {
  /** the command named in each line: "build", "import reports" */
  command: string;
  /** how many steps the command has (the [n/steps] of each line) */
  steps: number;
  /** milliseconds of a monotonic clock (default performance.now) */
  now?: () => number;
  /** a counting line at most this often... (default 5 s) */
  everyMs?: number;
  /** ...or when the count passed another this-many percent (default 10) */
  everyPercent?: number;
}

/**
 * Progress as log lines (see the top of this file). Satisfies the build's Progress (stage, done) and the
 * import's ImportProgress (stage, tick, bytes, done); `end(ok)` writes the last line, once.
 */
export interface LineProgress {
  stage(name: string, detail?: string): void;
  tick(done: number, total: number, unit?: string): void;
  bytes(done: number, size: number, rows: number): void;
  /** the current step is over (nothing is written: the next step's line or the end line follows) */
  done(): void;
  /** the command finished or stopped: the elapsed time (written once; later calls do nothing) */
  end(ok: boolean): void;
}

export function lineProgress(write: (line: string) => void, o: LineProgressOptions): LineProgress {
  const now = o.now ?? (() => performance.now());
  const everyMs = o.everyMs ?? 5000;
  const everyPercent = o.everyPercent ?? 10;
  const started = now();
  let step = 0;
  let name = '';
  let lastAt = started;
  let lastPercent = 0;
  let ended = false;
  /** a counting line is due: every `everyPercent` percent, or `everyMs` after the last line */
  const due = (done: number, total: number): boolean => {
    const p = percent(done, total);
    const t = now();
    if (p < lastPercent + everyPercent && t - lastAt < everyMs) return false;
    lastPercent = p - (p % everyPercent);
    lastAt = t;
    return true;
  };
  return {
    stage(stageName, detail) {
      if (ended) return;
      step++;
      name = stageName;
      lastAt = now();
      lastPercent = 0;
      write(progressLine(o.command, { kind: 'stage', step, steps: o.steps, name, detail }));
    },
    tick(done, total, unit) {
      if (ended || !name || !due(done, total)) return;
      write(progressLine(o.command, { kind: 'count', step, steps: o.steps, name, done, total, unit }));
    },
    bytes(done, size, rows) {
      if (ended || !name || !due(done, size)) return;
      write(progressLine(o.command, { kind: 'bytes', step, steps: o.steps, name, done, size, rows }));
    },
    done() {},
    end(ok) {
      if (ended) return;
      ended = true;
      write(progressLine(o.command, { kind: 'end', ok, elapsedMs: now() - started }));
    },
  };
}
