/**
 * Nightly builds that change little write little: a file whose content (access date masked) equals the
 * current build's is a hard link to it, the manifest records the access date it carries, and the server
 * sends the same bytes and ETag from either build. The build stays complete on its own (verifies; still
 * loads after the earlier build is pruned).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { FIXED_NOW, goldenBuild, goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createDemoDb } from '../../build/demo/create.ts';
import { readManifest } from '../../build/emit/store.ts';
import { verifyBuildDir } from '../../build/emit/verify.ts';
import { variantPath } from '../../build/emit/precompress.ts';
import { LoadedBuild } from '../../server/builds/loaded-build.ts';
import { RELEASE_FILES as RELEASE_FILE_SET, type BuildResult } from '../../build/run-build.ts';

const tmp = useTempDir('reuse');
/** rewritten by every release: the list of releases, the changelog page, CITATION.cff */
const RELEASE_FILES = [...RELEASE_FILE_SET];
let dir: string;
let out: string;
let db: string;
let first: Pick<BuildResult, 'id' | 'dir'>;
let second: BuildResult;
const later = new Date(FIXED_NOW.getTime() + 86_400_000);

beforeAll(() => {
  dir = tmp.path;
  out = join(dir, 'dist');
  const golden = goldenBuildIn(dir, out); // the run's shared golden build, copied
  db = golden.db;
  first = { id: golden.buildId, dir: golden.buildDir };
  // the next night: same reports, a new build date
  second = goldenBuild(db, out, { buildDate: '2026-11-17', now: () => later });
}, 120_000);

describe('reusing unchanged files', () => {
  it('a rebuild of the same reports on the next day changes no data file and writes none: every file but the release\'s is a link to the previous build', () => {
    expect(second.published).toBe(true);
    // the release files are new (a release that changed nothing); every other file is the first build's
    expect(second.filesChanged).toBe(RELEASE_FILES.length);
    expect(second.filesReused).toBe(second.summary.files - RELEASE_FILES.length);
    const a = readManifest(first.dir);
    const b = readManifest(second.dir);
    expect(b.build_date).toBe('2026-11-17');
    const releases = JSON.parse(readFileSync(join(second.dir, 'public/data/api/v1/releases.json'), 'utf8'));
    expect(releases.releases.map((r: { release: string }) => r.release)).toEqual(['2026-11-17', '2026-11-16']);
    expect(releases.releases[0].changes).toMatchObject({ previous: '2026-11-16', reports_added: 0, figures_moved: 0, newly_published: { count: 0 }, newly_withheld: { count: 0 } });
    for (const [path, entry] of Object.entries(b.files)) {
      if (RELEASE_FILES.includes(path)) continue;
      const before = a.files[path]!;
      expect(entry.content_hash).toBe(before.content_hash);
      expect(statSync(join(second.dir, path)).ino).toBe(statSync(join(first.dir, path)).ino);
      if (path.endsWith('.tar.gz')) expect(gunzipSync(readFileSync(join(second.dir, path))).includes('archive built 2026-11-16)')).toBe(true);
      // the file still says when the first build wrote it, and the manifest says so
      const hasDate = readFileSync(join(second.dir, path)).includes('accessed 2026-11-16)');
      expect(entry.access_date).toBe(hasDate ? '2026-11-16' : undefined);
      // its precompressed variants come with it, linked too
      expect(entry.gzip).toEqual(before.gzip);
      expect(entry.br).toEqual(before.br);
      for (const coding of ['gzip', 'br'] as const) {
        if (entry[coding]) expect(statSync(join(second.dir, variantPath(path, coding))).ino).toBe(statSync(join(first.dir, variantPath(path, coding))).ino);
      }
    }
    expect(verifyBuildDir(second.dir)).toEqual([]);
  });

  it('the gzip of a reused file, re-dated for any later day, is the gzip of that day\'s answer', async () => {
    const b = await LoadedBuild.load(second.dir, second.id);
    let checked = 0;
    for (const f of b.files.values()) {
      if (!f.gzip || f.parts.length === 1 || checked >= 300) continue;
      const body = b.body(f, '2026-12-01', 'gzip') as Buffer;
      expect(gunzipSync(body).equals(b.render(f, '2026-12-01').body), f.urlPath).toBe(true);
      checked++;
    }
    expect(checked).toBe(300);
  });

  it('the server sends the same bytes and ETag for a reused file as for the one it came from', async () => {
    const [a, b] = await Promise.all([LoadedBuild.load(first.dir, first.id), LoadedBuild.load(second.dir, second.id)]);
    let dated = 0;
    for (const [url, fa] of a.files) {
      if (RELEASE_FILES.includes(`public${url === '/changelog' ? '/changelog.html' : url}`)) continue;
      const fb = b.files.get(url)!;
      const ra = a.render(fa, '2026-11-20');
      const rb = b.render(fb, '2026-11-20');
      expect(rb.etag).toBe(ra.etag);
      expect(rb.body.equals(ra.body)).toBe(true);
      if (rb.body.includes('accessed 2026-11-20)')) dated++;
    }
    expect(dated).toBeGreaterThan(1000); // the access date is filled in for the day, from either build
  });

  it('new reports: only the files they change are written; the rest are links; the build is complete on its own after the earlier one is pruned', async () => {
    const db2 = join(dir, 'second.db');
    createDemoDb(db2, { reports: 1500, seed: 7, asOf: '2026-11-16', force: true, now: () => later }); // one more day of reports
    const third = goldenBuild(db2, out, { buildDate: '2026-11-18', now: () => new Date(later.getTime() + 86_400_000), force: true, keep: 1 });
    expect(third.published).toBe(true);
    expect(third.filesChanged).toBeGreaterThan(0);
    expect(third.filesReused).toBeGreaterThan(0);
    expect(third.filesReused + third.filesChanged).toBeGreaterThanOrEqual(third.summary.files);
    expect(third.pruned).toEqual(expect.arrayContaining([first.id, second.id]));
    // the archive: the unchanged rebuild kept the first one (it says when it was built); new figures, a new one
    const archived = (d: string) => gunzipSync(readFileSync(join(d, 'public/data/api/v1/physpay-open-data.tar.gz'))).toString('latin1');
    expect(archived(third.dir)).toContain('archive built 2026-11-18)');
    expect(archived(third.dir)).not.toMatch(/archive built 2026-11-1[67]\)|accessed \d{4}/);
    expect(verifyBuildDir(third.dir)).toEqual([]);
    const loaded = await LoadedBuild.load(third.dir, third.id);
    expect(loaded.files.size).toBeGreaterThan(1000);
  }, 120_000);
});
