/**
 * Where the service DB is by default: `service.db` in the working directory, beside `dist-data/`, not in it
 * (it was `dist-data/service.db`). Clearing or replacing the published data (`rm -rf dist-data`, a restore of
 * the builds) must not take the API keys, their counts and the reports waiting in /contribute with it.
 *
 * An install made before the move still has its DB at the old place. A command that would then open or
 * create a new, empty `service.db` (every key refused, waiting reports unseen) refuses instead, naming both
 * places and the move (exit 2). Given explicitly (flag, variable or config file), any path is taken as it is.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from './io.ts';
import { givenExplicitly } from './settings.ts';

export const DEFAULT_SERVICE_DB = 'service.db';
export const OLD_DEFAULT_SERVICE_DB = 'dist-data/service.db';

/**
 * Pure: the refusal for a service DB left at its old default place, or null. `exists` tells whether a
 * path (relative to the working directory) exists.
 */
export function oldDefaultProblem(explicit: boolean, value: string, exists: (path: string) => boolean): string | null {
  if (explicit || value !== DEFAULT_SERVICE_DB) return null;
  if (exists(DEFAULT_SERVICE_DB) || !exists(OLD_DEFAULT_SERVICE_DB)) return null;
  return `the service DB (API keys, their counts, reports waiting from /contribute) is now looked for at ${DEFAULT_SERVICE_DB}, ` +
    `beside dist-data/ so that clearing dist-data cannot lose it, but this install has it at ${OLD_DEFAULT_SERVICE_DB}; ` +
    `move it with the server stopped: mv ${OLD_DEFAULT_SERVICE_DB} ${DEFAULT_SERVICE_DB} (and any ${OLD_DEFAULT_SERVICE_DB}-wal and -shm beside it), ` +
    `or keep it there with --service-db ${OLD_DEFAULT_SERVICE_DB} (PHYSPAY_SERVICE_DB)`;
}

/** Before any command that takes --service-db runs: refuse a service DB left at the old default place. */
export function checkServiceDbLocation(program: Command): void {
  program.hook('preAction', (_program, cmd) => {
    if (!cmd.options.some((o) => o.attributeName() === 'serviceDb')) return;
    const problem = oldDefaultProblem(givenExplicitly(cmd, 'serviceDb'), String(cmd.getOptionValue('serviceDb')), existsSync);
    if (problem) throw new CliError(problem, 2);
  });
}
