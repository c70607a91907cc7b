/**
 * The dist-data folder: immutable versioned builds and the `current` pointer.
 *
 *   dist-data/
 *     current -> builds/<id>          symlink, switched atomically (rename over it), last step of a build
 *     builds/<id>/                    a published build: manifest.json, build.json, public/, private/
 *     builds/.staging-<id>/           a build in progress (never served; removed if abandoned)
 *     pins/<id>                       an empty file per pinned build: never pruned; a pinned current build
 *                                     is not replaced by `physpay build` (until `physpay builds unpin`)
 *     .build.lock                     held while a build, rollback, pin or unpin runs
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BuildSummary, Manifest } from '../contract/manifest.ts';
import { ReleasesFeed, RELEASES_PATH, type Release } from '../contract/releases.ts';

export class StoreError extends Error {}

export const buildsDir = (root: string) => join(root, 'builds');
export const currentLink = (root: string) => join(root, 'current');
export const pinsDir = (root: string) => join(root, 'pins');

/** Ids of pinned builds, sorted. */
export function pinnedBuilds(root: string): string[] {
  const dir = pinsDir(root);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((n) => !n.startsWith('.')).sort();
}

export function isPinned(root: string, id: string): boolean {
  return existsSync(join(pinsDir(root), id));
}

/** Pin a build (call while holding the lock): it is never pruned, and while current it is not replaced. */
export function pinBuild(root: string, id: string): void {
  mkdirSync(pinsDir(root), { recursive: true });
  closeSync(openSync(join(pinsDir(root), id), 'w'));
  fsyncDir(pinsDir(root));
}

/** Remove a build's pin; false when it was not pinned. */
export function unpinBuild(root: string, id: string): boolean {
  try {
    unlinkSync(join(pinsDir(root), id));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  fsyncDir(pinsDir(root));
  return true;
}

/** Id of the build `current` points at, or null. */
export function currentBuildId(root: string): string | null {
  try {
    const target = readlinkSync(currentLink(root));
    const m = /(?:^|\/)builds\/([^/]+)\/?$/.exec(target);
    return m ? m[1]! : null;
  } catch {
    return null;
  }
}

/** Point `current` at builds/<id>: write a new symlink beside it and rename it over the old one (atomic). */
export function switchCurrent(root: string, id: string): void {
  const tmp = join(root, `.current-${process.pid}-${Date.now()}`);
  symlinkSync(join('builds', id), tmp);
  renameSync(tmp, currentLink(root));
  fsyncDir(root);
}

export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Write a file and flush it to disk. */
export function writeFileDurable(path: string, data: string | Uint8Array, durable: boolean): void {
  const fd = openSync(path, 'w');
  try {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface BuildListing {
  id: string;
  current: boolean;
  pinned: boolean;
  summary: BuildSummary | null;
}

/** Published builds, newest first (ids sort by creation time). */
export function listBuilds(root: string): BuildListing[] {
  const dir = buildsDir(root);
  if (!existsSync(dir)) return [];
  const cur = currentBuildId(root);
  const pins = new Set(pinnedBuilds(root));
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.') && existsSync(join(dir, name, 'manifest.json')))
    .sort()
    .reverse()
    .map((id) => {
      let summary: BuildSummary | null = null;
      try {
        summary = BuildSummary.parse(JSON.parse(readFileSync(join(dir, id, 'build.json'), 'utf8')));
      } catch {
        summary = null;
      }
      return { id, current: id === cur, pinned: pins.has(id), summary };
    });
}

/** The releases a build's releases.json lists, newest first (none when it has none or it cannot be read). */
export function buildReleases(buildDir: string): Release[] {
  const path = join(buildDir, 'public', RELEASES_PATH);
  if (!existsSync(path)) return [];
  try {
    return ReleasesFeed.parse(JSON.parse(readFileSync(path, 'utf8'))).releases;
  } catch {
    return [];
  }
}

export function readManifest(buildDir: string): Manifest {
  return Manifest.parse(JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')));
}

/** Remove abandoned staging folders (call while holding the lock). */
export function removeStaleStaging(root: string): string[] {
  const dir = buildsDir(root);
  if (!existsSync(dir)) return [];
  const removed = readdirSync(dir).filter((n) => n.startsWith('.staging-'));
  for (const n of removed) rmSync(join(dir, n), { recursive: true, force: true });
  return removed;
}

/** Keep the newest `keep` builds, and always the current one and every pinned one. Returns removed ids. */
export function pruneBuilds(root: string, keep: number): string[] {
  const builds = listBuilds(root);
  const removed: string[] = [];
  builds.forEach((b, i) => {
    if (i >= keep && !b.current && !b.pinned) {
      rmSync(join(buildsDir(root), b.id), { recursive: true, force: true });
      removed.push(b.id);
    }
  });
  return removed;
}

/** A lock file holding the owner's pid; a lock whose owner is gone is taken over. */
export function acquireLock(root: string): () => void {
  mkdirSync(root, { recursive: true });
  const path = join(root, '.build.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(path);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(path, 'utf8').trim());
      if (owner && isAlive(owner) && owner !== process.pid) {
        throw new StoreError(`another build or rollback is running (pid ${owner}, lock ${path})`);
      }
      unlinkSync(path); // stale: its owner died
    }
  }
  throw new StoreError(`cannot take the lock ${path}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
