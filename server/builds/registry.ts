/**
 * Follows `dist-data/current` and keeps the build it points at loaded. When the pointer changes (a new
 * build or a rollback) the new build is loaded and verified in the background while the old one keeps
 * serving; then one assignment swaps them. Requests hold the build they started with, so they finish on it.
 * A build that fails verification is not served (the previous one stays; the failure is reported).
 */
import { readlinkSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { LoadedBuild } from './loaded-build.ts';

export interface RegistryEvents {
  /** `loadMs`: how long reading and verifying the new build took */
  onSwap?(build: LoadedBuild, previous: LoadedBuild | null, loadMs: number): void;
  onError?(message: string): void;
}

export interface RegistryOptions {
  /** a build that failed to load is tried again after this long (doubling up to 16x), ms */
  retryMs?: number;
  now?: () => number;
}

export class BuildRegistry {
  current: LoadedBuild | null = null;
  /** the id of the build being read and verified now (null when none is): /readyz names it until the first is loaded */
  loading: string | null = null;
  private target: string | null = null;
  /** failed link targets: when to try again, and how many times they failed */
  private failed = new Map<string, { retryAt: number; failures: number }>();
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private readonly retryMs: number;
  private readonly now: () => number;

  constructor(
    readonly dataDir: string,
    private readonly events: RegistryEvents = {},
    opts: RegistryOptions = {},
  ) {
    this.retryMs = opts.retryMs ?? 30_000;
    this.now = opts.now ?? Date.now;
  }

  /** Check the pointer once (and load a new build if it moved). */
  check(): Promise<void> {
    this.checking ??= this.doCheck().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async doCheck(): Promise<void> {
    let target: string;
    try {
      // synchronous (a link's text, no file read): `loading` is set before check() returns, so the requests
      // that waited for the app while serve started see /readyz name the build being loaded
      target = readlinkSync(join(this.dataDir, 'current'));
    } catch {
      return; // no build published yet
    }
    if (target === this.target) return;
    const failure = this.failed.get(target);
    if (failure && this.now() < failure.retryAt) return;
    const id = basename(target.replace(/\/+$/, ''));
    const started = performance.now();
    this.loading = id;
    try {
      // resolve(): the link text may be relative to the data dir (as `physpay build` writes it) or absolute
      const build = await LoadedBuild.load(resolve(this.dataDir, target), id);
      const previous = this.current;
      this.current = build;
      this.target = target;
      this.failed.delete(target);
      this.loading = null;
      this.events.onSwap?.(build, previous, performance.now() - started);
    } catch (err) {
      this.loading = null;
      // Tried again after a back-off (a copy may still have been in progress); reported once per failure.
      const failures = (failure?.failures ?? 0) + 1;
      this.failed.set(target, { retryAt: this.now() + this.retryMs * Math.min(16, 2 ** (failures - 1)), failures });
      this.events.onError?.(`build ${id} not loaded${failures > 1 ? ` (attempt ${failures})` : ''}: ${(err as Error).message}`);
    }
  }

  /** Start following the pointer every `intervalMs`. */
  start(intervalMs = 500): Promise<void> {
    this.timer = setInterval(() => void this.check(), intervalMs);
    this.timer.unref();
    return this.check();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
