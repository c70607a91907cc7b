/** Open the service store named by `--service-db`: a postgres:// URL or a SQLite file path. */
import { SqliteServiceStore, type StoreEvents } from './sqlite.ts';
import { PostgresServiceStore } from './postgres.ts';
import type { ServiceStore } from './types.ts';

export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//.test(target);
}

/** `events`: the store's outages and recoveries (both stores report them the same way: /readyz, metrics, log). */
export async function openServiceStore(target: string, events: StoreEvents = {}): Promise<ServiceStore> {
  return isPostgresUrl(target) ? PostgresServiceStore.open(target, [], { events }) : new SqliteServiceStore(target, events);
}
