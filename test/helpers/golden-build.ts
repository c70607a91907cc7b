/**
 * The fixed input of the golden build: a small synthetic reports DB (seeded, so anyone can regenerate it
 * by hand with `physpay demo --db golden.db --reports 1500 --seed 7 --as-of 2026-11-15`) and fixed build
 * options (clock, build date, base URL).
 *
 * goldenBuildIn gives a test file the golden DB and its golden build in a folder of its own: a copy of the
 * run's shared build (built once by the first file that asks; golden-global.ts) rather than a new build.
 * useGoldenDir does that in a temporary folder of the file's tests (useTempDir).
 */
import { cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { beforeAll, inject } from 'vitest';
import { createDemoDb } from '../../build/demo/create.ts';
import { DEFAULT_BUILD_OPTIONS, runBuild, type BuildOptions, type BuildResult } from '../../build/run-build.ts';
import { makeTempDir, removeDir, useTempDir, type TempDir } from './temp-dir.ts';

export const GOLDEN_DEMO = { reports: 1500, seed: 7, asOf: '2026-11-15' };
export const FIXED_NOW = new Date('2026-11-16T03:00:00.000Z');

export function makeGoldenDb(dir = makeTempDir('golden')): string {
  const db = join(dir, 'golden.db');
  createDemoDb(db, { ...GOLDEN_DEMO, force: true, now: () => FIXED_NOW });
  return db;
}

/**
 * A build of `db` with the golden options. The precompressed variants (about 2.8 s a build) are written only
 * when asked (`precompress: true`); the run's shared golden build has them, so every served copy does.
 */
export function goldenBuild(db: string, out: string, overrides: Partial<BuildOptions> = {}): BuildResult {
  return runBuild({
    ...DEFAULT_BUILD_OPTIONS,
    db,
    out,
    baseUrl: 'https://physpay.example',
    buildDate: '2026-11-16',
    durable: false,
    now: () => FIXED_NOW,
    precompress: false,
    ...overrides,
  });
}

export interface GoldenFiles {
  /** the golden reports DB: `<work>/golden.db` */
  db: string;
  /** the data dir (its `current` points at the build) */
  dist: string;
  /** the build's id and folder */
  buildId: string;
  buildDir: string;
}

/** The run's shared golden build (`<cache>/ready/dist`), built here when no file has built it yet; null outside a vitest run. */
function sharedGolden(): { dist: string; buildId: string; buildDir: string } | null {
  let cache: string | undefined;
  try {
    cache = inject('goldenCache');
  } catch {
    return null;
  }
  if (!cache || !existsSync(cache)) return null;
  const ready = join(cache, 'ready');
  if (!existsSync(join(ready, 'build.json'))) {
    const tmp = mkdtempSync(join(cache, 'building-'));
    const built = goldenBuild(makeGoldenDb(tmp), join(tmp, 'dist'), { precompress: true });
    writeFileSync(join(tmp, 'build.json'), JSON.stringify({ buildId: built.id, buildDir: relative(join(tmp, 'dist'), built.dir) }));
    try {
      renameSync(tmp, ready); // atomic: the first file to finish wins
    } catch {
      removeDir(tmp); // another file was first: its build is the same
    }
  }
  const { buildId, buildDir } = JSON.parse(readFileSync(join(ready, 'build.json'), 'utf8')) as { buildId: string; buildDir: string };
  return { dist: join(ready, 'dist'), buildId, buildDir };
}

/**
 * The golden DB (`<work>/golden.db`) and its golden build (default options) in `dist` (default
 * `<work>/dist`): a copy of the run's shared build, or a new build outside a vitest run. The files are the
 * test's own: it may change them.
 */
export function goldenBuildIn(work: string, dist = join(work, 'dist')): GoldenFiles {
  const db = makeGoldenDb(work);
  const shared = sharedGolden();
  if (!shared) {
    const built = goldenBuild(db, dist, { precompress: true });
    return { db, dist, buildId: built.id, buildDir: built.dir };
  }
  // `current` stays a relative link; the precompressed variants (encoded/) are hard links to the shared
  // build's, not copies: they double the number of files, and no test writes into them in place
  cpSync(shared.dist, dist, { recursive: true, verbatimSymlinks: true, filter: (src) => basename(src) !== 'encoded' });
  const encoded = join(shared.dist, shared.buildDir, 'encoded');
  if (existsSync(encoded)) linkTree(encoded, join(dist, shared.buildDir, 'encoded'));
  return { db, dist, buildId: shared.buildId, buildDir: join(dist, shared.buildDir) };
}

/** A copy of the folder `from` at `to` made of hard links to its files. */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    if (e.isDirectory()) linkTree(join(from, e.name), join(to, e.name));
    else linkSync(join(from, e.name), join(to, e.name));
  }
}

export interface GoldenDir extends TempDir, GoldenFiles {}

/**
 * A temporary folder for this file's tests (useTempDir) holding the golden DB and build (goldenBuildIn),
 * made in beforeAll. Read its fields in hooks registered after this call and in tests.
 */
export function useGoldenDir(prefix: string): GoldenDir {
  const tmp = useTempDir(prefix);
  let files: GoldenFiles | undefined;
  beforeAll(() => {
    files = goldenBuildIn(tmp.path);
  }, 120_000);
  const get = (): GoldenFiles => {
    if (!files) throw new Error(`golden folder ${prefix} read before its beforeAll`);
    return files;
  };
  return {
    get path() {
      return tmp.path;
    },
    get db() {
      return get().db;
    },
    get dist() {
      return get().dist;
    },
    get buildId() {
      return get().buildId;
    },
    get buildDir() {
      return get().buildDir;
    },
  };
}
