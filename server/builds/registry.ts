/**
 * Follows `dist-data/current` and keeps the build it points at loaded. When the pointer changes (a new
 * build or a rollback) the new build is loaded and verified in the background while the old one keeps
 * serving; then one assignment swaps them. Requests hold the build they started with, so they finish on it.
 * A build that fails verification is not served (the previous one stays; the failure is reported).
 */
import { readlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { LoadedBuild } from './loaded-build.ts';

export interface RegistryEvents {
  onSwap?(build: LoadedBuild, previous: LoadedBuild | null): void;
  onError?(message: string): void;
}

export class BuildRegistry {
  current: LoadedBuild | null = null;
  private target: string | null = null;
  private failed = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;

  constructor(
    readonly dataDir: string,
    private readonly events: RegistryEvents = {},
  ) {}

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
      target = await readlink(join(this.dataDir, 'current'));
    } catch {
      return; // no build published yet
    }
    if (target === this.target || this.failed.has(target)) return;
    const id = basename(target.replace(/\/+$/, ''));
    try {
      const build = await LoadedBuild.load(join(this.dataDir, target), id);
      const previous = this.current;
      this.current = build;
      this.target = target;
      this.events.onSwap?.(build, previous);
    } catch (err) {
      this.failed.add(target);
      this.events.onError?.(`build ${id} not loaded: ${(err as Error).message}`);
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
