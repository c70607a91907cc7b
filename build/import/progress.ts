/**
 * Import progress, in the style of the build's (build/emit/progress.ts): one line per stage, rewritten in
 * place with a running count, and finished with its duration. The CLI only asks for it on a terminal,
 * and importFile only uses it for files of more than PROGRESS_MIN_BYTES bytes.
 */
export const PROGRESS_MIN_BYTES = 512 * 1024;

export interface ImportProgress {
  stage(label: string): void;
  /** `done` of `total` items (`unit`, default rows) of the current stage (throttled: the line is rewritten every 1% or so). */
  tick(done: number, total: number, unit?: string): void;
  /** `done` of `size` bytes of the file read, `rows` rows so far (throttled the same way). */
  bytes(done: number, size: number, rows: number): void;
  done(): void;
}

export const silentImportProgress: ImportProgress = { stage() {}, tick() {}, bytes() {}, done() {} };

const fmt = (n: number) => n.toLocaleString('en-US');

export function ttyImportProgress(write: (s: string) => void, stages: number): ImportProgress {
  let step = 0;
  let label = '';
  let started = 0;
  let shown = 0; // length of the line on screen, to blank out what a shorter line leaves behind
  let nextTick = 0;
  const show = (line: string, end: string) => {
    write(`${line.padEnd(shown)}${end}`);
    shown = end === '\r' ? line.length : 0;
  };
  const finish = () => {
    if (label) show(`${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`, '\n');
    label = '';
  };
  return {
    stage(name) {
      finish();
      step++;
      started = performance.now();
      nextTick = 0;
      label = `[${step}/${stages}] ${name}`;
      show(`${label} ...`, '\r');
    },
    tick(done, total) {
      if (!label || done < nextTick) return;
      nextTick = done + Math.max(1, Math.floor(total / 100));
      show(`${label}: ${fmt(done)} / ${fmt(total)} ...`, '\r');
    },
    bytes(done, size, rows) {
      if (!label || done < nextTick) return;
      nextTick = done + Math.max(1, Math.floor(size / 100));
      show(`${label}: ${Math.floor((100 * done) / Math.max(size, 1))}%, ${fmt(rows)} rows ...`, '\r');
    },
    done: finish,
  };
}
