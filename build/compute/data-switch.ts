/**
 * Switching the published data between synthetic demo data and real reports (pure). The current build's
 * summary says which it holds (build.json `synthetic`), the reports DB which this build holds
 * (`dataset_meta.synthetic`). A build never makes the switch on its own: each direction has its flag, named
 * for it, and `--force` (the sanity diff's override) is not one of them.
 */
export type DataSwitch = 'synthetic-over-real' | 'real-over-synthetic';

/** The flag that allows each switch. */
export const SWITCH_FLAGS: Record<DataSwitch, string> = {
  'synthetic-over-real': '--allow-synthetic-over-real',
  'real-over-synthetic': '--allow-real-over-synthetic',
};

/** The switch publishing this build would make (null: a first build, or the same kind of data). */
export function dataSwitch(currentSynthetic: boolean | null, nextSynthetic: boolean): DataSwitch | null {
  if (currentSynthetic === null || currentSynthetic === nextSynthetic) return null;
  return nextSynthetic ? 'synthetic-over-real' : 'real-over-synthetic';
}

/** Why the build was refused: one sentence naming the flag. */
export function switchRefusal(sw: DataSwitch, db: string, currentId: string): string {
  if (sw === 'synthetic-over-real') {
    return `refusing to publish synthetic demo data (${db} is marked synthetic) over the current build ${currentId}, which holds real reports; nothing was published. ` +
      `To replace the real figures with demo data, re-run with ${SWITCH_FLAGS[sw]}; to try the demo, build it into another --out folder`;
  }
  return `refusing to publish real reports (${db} is not marked synthetic) over the current build ${currentId}, which is synthetic demo data; nothing was published. ` +
    `To replace the demo data with real reports, re-run with ${SWITCH_FLAGS[sw]} (the sanity diff is then not run: demo figures say nothing about real ones); or build into another --out folder`;
}

/** The warning of a build published with the switch allowed. */
export function switchWarning(sw: DataSwitch, previousId: string): string {
  const what = sw === 'synthetic-over-real' ? `synthetic demo data over the build of real reports ${previousId}` : `real reports over the synthetic demo build ${previousId}`;
  return `published ${what} (${SWITCH_FLAGS[sw]}); the sanity diff against it was not run`;
}
