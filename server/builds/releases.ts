/**
 * Every kept release, addressable (data/api/v1/releases/<release>/...): which build published a release, and
 * that build loaded on demand. Each build folder under dist-data/builds/ is one release (its releases.json's
 * `latest`); builds are immutable, so what a folder holds is read once. A few builds are held in memory
 * (the newest asked for); the current build is always the registry's.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RELEASES_PATH } from '../../build/contract/releases.ts';
import { releaseToken } from '../../build/contract/manifest.ts';
import { RELEASE_ID } from '../../build/contract/release-id.ts';
import { LoadedBuild, type ServedFile } from './loaded-build.ts';
import type { BuildRegistry } from './registry.ts';

/** Older builds held loaded at once (each holds its public files in memory, like the current one). */
const HELD = 2;

export interface ReleaseFile {
  build: LoadedBuild;
  file: ServedFile;
}

export class ReleaseShelf {
  /** build id -> its release (null: the folder has no readable releases.json) */
  private readonly releaseOf = new Map<string, string | null>();
  private readonly held = new Map<string, Promise<LoadedBuild>>();

  constructor(private readonly registry: BuildRegistry) {}

  /** The release the current build published, when one is loaded. */
  currentRelease(): string | null {
    const b = this.registry.current;
    return b ? releaseOfLoaded(b) : null;
  }

  /** The releases whose builds are on disk, newest build first. */
  async kept(): Promise<string[]> {
    const out: string[] = [];
    for (const id of await this.buildIds()) {
      const r = await this.releaseOfBuild(id);
      if (r && !out.includes(r)) out.push(r);
    }
    return out;
  }

  /** The build that published `release`, loaded (null when no kept build did). */
  async build(release: string): Promise<LoadedBuild | null> {
    if (!RELEASE_ID.test(release)) return null;
    const current = this.registry.current;
    if (current && releaseOfLoaded(current) === release) return current;
    for (const id of await this.buildIds()) {
      if ((await this.releaseOfBuild(id)) !== release) continue;
      let loading = this.held.get(id);
      if (!loading) {
        loading = LoadedBuild.load(join(this.registry.dataDir, 'builds', id), id);
        loading.catch(() => this.held.delete(id));
        this.held.set(id, loading);
        while (this.held.size > HELD) this.held.delete(this.held.keys().next().value!);
      }
      return loading;
    }
    return null;
  }

  /**
   * The file at `path` (a URL path under /data/api/v1/) as release `release` published it. A document that has
   * not changed since that release is the current build's own file (its release label says so), so a cited
   * URL keeps resolving after the build that first published it is pruned; anything else comes from the
   * build that published the release. Null when neither has it.
   */
  async file(release: string, path: string): Promise<ReleaseFile | null> {
    if (!RELEASE_ID.test(release)) return null;
    const current = this.registry.current;
    const here = current?.files.get(path);
    if (current && here && path.endsWith('.json') && carriesRelease(here, release)) return { build: current, file: here };
    const build = await this.build(release);
    const file = build?.files.get(path);
    return build && file ? { build, file } : null;
  }

  private async buildIds(): Promise<string[]> {
    try {
      return (await readdir(join(this.registry.dataDir, 'builds'))).filter((n) => !n.startsWith('.')).sort().reverse();
    } catch {
      return [];
    }
  }

  private async releaseOfBuild(id: string): Promise<string | null> {
    if (this.releaseOf.has(id)) return this.releaseOf.get(id)!;
    let release: string | null;
    try {
      const doc = JSON.parse(await readFile(join(this.registry.dataDir, 'builds', id, 'public', RELEASES_PATH), 'utf8')) as { latest?: unknown };
      release = typeof doc.latest === 'string' && RELEASE_ID.test(doc.latest) ? doc.latest : null;
    } catch {
      return null; // a folder being written or removed: not remembered, it may be readable later
    }
    this.releaseOf.set(id, release);
    return release;
  }
}

const loadedRelease = new WeakMap<LoadedBuild, string | null>();

/** The release a loaded build published (its releases.json's `latest`). */
export function releaseOfLoaded(build: LoadedBuild): string | null {
  if (loadedRelease.has(build)) return loadedRelease.get(build)!;
  const f = build.files.get(`/${RELEASES_PATH}`);
  let release: string | null = null;
  try {
    const latest = f ? (JSON.parse(Buffer.concat(f.parts).toString('utf8')) as { latest?: unknown }).latest : null;
    release = typeof latest === 'string' && RELEASE_ID.test(latest) ? latest : null;
  } catch {
    release = null;
  }
  loadedRelease.set(build, release);
  return release;
}

/** Does a served JSON document carry `"release": "<release>"` (the release it last changed in)? */
function carriesRelease(file: ServedFile, release: string): boolean {
  const token = Buffer.from(releaseToken(release));
  return file.parts.some((p) => p.includes(token));
}
