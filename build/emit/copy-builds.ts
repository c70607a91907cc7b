/**
 * Copy a dist-data folder's published builds for a backup: every build folder (the current one first), the
 * `current` pointer and the pins, with hard links kept (a build reuses its predecessor's unchanged files as
 * hard links, so seven builds take little more room than one, in the copy as in the original).
 *
 * The builds carry the release history a later build continues (the current build's releases.json, the
 * changelog, each release's own files): without them a restored install starts its history again and
 * gives a release id that was already cited to other figures.
 *
 * Written into `<dest>.tmp-<pid>` and renamed to `dest` once every build copied verifies against its
 * manifest; a build pruned while it is copied (never the current one) is left out and named.
 */
import { copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { buildReleases, buildsDir, currentBuildId, fsyncDir, pinnedBuilds, pinsDir } from './store.ts';
import { verifyBuildDir } from './verify.ts';

export interface BuildsCopy {
  source: string;
  dir: string;
  /** the build `current` pointed at when the copy began */
  current: string;
  /** build ids copied, the current one first */
  builds: string[];
  pinned: string[];
  /** the releases the current build lists (its releases.json), newest first: the history a restore keeps */
  releases: string[];
  /** builds removed from the source while they were being copied (pruned by a build) */
  vanished: string[];
  files: number;
  /** bytes on disk (a hard-linked file counted once) */
  bytes: number;
}

export class BuildsCopyError extends Error {}

/** Copy a tree, linking a file whose inode was copied before instead of copying it again. */
function copyTree(from: string, to: string, seen: Map<string, string>, tally: { files: number; bytes: number }): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, e.name);
    const dst = join(to, e.name);
    if (e.isDirectory()) copyTree(src, dst, seen, tally);
    else if (e.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
    else if (e.isFile()) {
      const st = statSync(src);
      const inode = `${st.dev}:${st.ino}`;
      const first = st.nlink > 1 ? seen.get(inode) : undefined;
      if (first) linkSync(first, dst);
      else {
        copyFileSync(src, dst);
        if (st.nlink > 1) seen.set(inode, dst);
        tally.bytes += st.size;
      }
      tally.files++;
    }
  }
}

const vanishedError = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Copy the builds of dist-data folder `source` into `dest` (which must not exist). Returns null when
 * `source` has no published build. Throws BuildsCopyError when a copied build does not verify (nothing kept).
 */
export function copyBuilds(source: string, dest: string): BuildsCopy | null {
  const current = currentBuildId(source);
  if (!current || !existsSync(join(buildsDir(source), current, 'manifest.json'))) return null;
  const tmp = `${dest}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    const others = readdirSync(buildsDir(source)).filter((n) => !n.startsWith('.') && n !== current).sort().reverse();
    const seen = new Map<string, string>();
    const tally = { files: 0, bytes: 0 };
    const copied: string[] = [];
    const vanished: string[] = [];
    for (const id of [current, ...others]) {
      const to = join(buildsDir(tmp), id);
      try {
        if (!lstatSync(join(buildsDir(source), id)).isDirectory()) continue;
        copyTree(join(buildsDir(source), id), to, seen, tally);
      } catch (err) {
        if (id === current || !vanishedError(err)) throw err;
        rmSync(to, { recursive: true, force: true });
        vanished.push(id);
        continue;
      }
      const problems = verifyBuildDir(to);
      if (problems.length) {
        if (id !== current && !existsSync(join(buildsDir(source), id))) {
          rmSync(to, { recursive: true, force: true });
          vanished.push(id);
          continue;
        }
        throw new BuildsCopyError(`the copy of build ${id} does not match its manifest: ${problems.slice(0, 3).join('; ')}`);
      }
      copied.push(id);
    }
    symlinkSync(join('builds', current), join(tmp, 'current'));
    const pinned = pinnedBuilds(source).filter((id) => copied.includes(id));
    if (pinned.length) {
      mkdirSync(pinsDir(tmp));
      for (const id of pinned) copyFileSync(join(pinsDir(source), id), join(pinsDir(tmp), id));
    }
    renameSync(tmp, dest);
    fsyncDir(join(dest, '..'));
    return { source, dir: dest, current, builds: copied, pinned, releases: buildReleases(join(buildsDir(dest), current)).map((r) => r.release), vanished, files: tally.files, bytes: tally.bytes };
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}
