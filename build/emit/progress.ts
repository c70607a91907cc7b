/** Build progress: stage lines on a TTY, silence otherwise (the CLI prints one summary line at the end). */
export interface Progress {
  stage(name: string, detail?: string): void;
  done(): void;
}

export const silentProgress: Progress = { stage() {}, done() {} };

export function ttyProgress(write: (s: string) => void, total: number): Progress {
  let step = 0;
  let started = performance.now();
  let last = '';
  const finish = () => {
    if (last) write(`${last} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  };
  return {
    stage(name, detail) {
      finish();
      step++;
      started = performance.now();
      last = `[${step}/${total}] ${name}${detail ? `: ${detail}` : ''}`;
      write(`${last} ...\r`);
    },
    done: finish,
  };
}
