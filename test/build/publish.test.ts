/**
 * The build as a publisher: determinism, publication floors checked against the source DB, withheld
 * figures with notices, validation of tampered artifacts, the sanity diff, retention and rollback.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import Database from 'better-sqlite3';
import { cpSync, existsSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXED_NOW, goldenBuild, goldenBuildIn, makeGoldenDb, type GoldenFiles } from '../helpers/golden-build.ts';
import { listFiles, readJson } from '../helpers/tree.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { BuildError, RELEASE_FILES } from '../../build/run-build.ts';
import { currentBuildId, listBuilds } from '../../build/emit/store.ts';
import { verifyBuildDir } from '../../build/emit/verify.ts';
import { readManifest } from '../../build/emit/store.ts';
import { sha256 } from '../../build/contract/validate.ts';
import { main } from '../../build/cli/main.ts';
import type { CliIo } from '../../build/cli/io.ts';

// Each build now writes ~5,400 files (feeds, pages, CSV): tests with several builds, and deleting them all
// afterwards, need more than the default 30 s / 60 s on shared cores.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const tmp = useTempDir('publish');
let work: string;
let db: string;

beforeAll(() => {
  work = tmp.path;
  db = makeGoldenDb(work);
});

const fresh = (name: string) => join(work, name);
/**
 * A golden build of `db` with the default options in its own dist folder: a copy of the run's shared golden
 * build (the same bytes a new build writes: the determinism test below shows it), not another build.
 */
const golden = (name: string): GoldenFiles => {
  mkdirSync(fresh(name));
  return goldenBuildIn(fresh(name));
};

function captureIo(): CliIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (l) => lines.push(l), err: (l) => errors.push(l), now: () => FIXED_NOW, isTty: false };
}

describe('determinism', () => {
  it('two builds of the same DB with the same options write byte-identical files', () => {
    // the run's shared golden build (built by whichever file asked first) against a new one, a minute later
    const a = { dir: golden('det-a').buildDir };
    const b = goldenBuild(db, fresh('det-b'), { now: () => new Date(FIXED_NOW.getTime() + 60_000), precompress: true }); // as the shared build
    const files = listFiles(a.dir).filter((p) => p !== 'build.json' && p !== 'manifest.json');
    expect(files.length).toBeGreaterThan(2000);
    expect(listFiles(b.dir).filter((p) => p !== 'build.json' && p !== 'manifest.json')).toEqual(files);
    for (const p of files) expect(sha256(readFileSync(join(b.dir, p))), p).toBe(sha256(readFileSync(join(a.dir, p))));
  });

  it('a different build date changes only the access date and the release label: figures hashes stay equal', () => {
    const a = { dir: golden('date-a').buildDir };
    const b = goldenBuild(db, fresh('date-b'), { buildDate: '2026-11-17' });
    const ma = readManifest(a.dir).files;
    const mb = readManifest(b.dir).files;
    const feed = 'public/data/api/v1/specialties/family-medicine.json';
    expect(mb[feed]!.sha256).not.toBe(ma[feed]!.sha256);
    // a feed names its release (here each build's first, named by its date), and so do the pages showing it; CSVs name none
    expect(readJson<{ release: string }>(join(b.dir, feed)).release).toBe('2026-11-17');
    expect(mb[feed]!.content_hash).not.toBe(ma[feed]!.content_hash);
    for (const p of Object.keys(ma)) {
      // the release files name the release; the archive (and its checksum) holds the feeds, labels included
      if (RELEASE_FILES.has(p) || p.endsWith('.tar.gz') || p.endsWith('.tar.gz.sha256')) continue;
      expect(mb[p]!.figures_hash ?? mb[p]!.content_hash, p).toBe(ma[p]!.figures_hash ?? ma[p]!.content_hash);
      // a file that names no release (CSVs, the icon, robots.txt) is byte for byte the same
      if (!ma[p]!.figures_hash) expect(mb[p]!.content_hash, p).toBe(ma[p]!.content_hash);
    }
    expect(readJson<{ attribution: string }>(join(b.dir, feed)).attribution).toContain('accessed 2026-11-17)');
  });
});

describe('publication floors', () => {
  const built = () => ({ dir: golden(`floors-${Math.random().toString(36).slice(2)}`).buildDir });

  it('no figure in public/ comes from fewer approved reports than its floor (checked against the DB)', () => {
    const r = built();
    const sql = new Database(db, { readonly: true });
    // the reports of the headline years (the full-time basis and outlier exclusion only remove more)
    const countIn = sql.prepare(`SELECT count(*) AS n FROM reports r JOIN specialties s ON s.id = r.specialty_id
      WHERE r.status = 'approved' AND s.slug = ? AND (? IS NULL OR r.state = ?) AND r.year BETWEEN ? AND ?`);
    const base = join(r.dir, 'public/data/api/v1');
    let checked = 0;
    for (const p of listFiles(join(base, 'specialties'))) {
      const doc = readJson<{ n: number | null; median: number | null; p10: number | null; p90: number | null; specialty: { slug: string }; state?: { code: string }; basis: { compensation_years: { from: number; to: number } } }>(join(base, 'specialties', p));
      if (doc.median === null) {
        expect(doc.n, p).toBeNull();
        continue;
      }
      const code = doc.state?.code ?? null;
      const { from, to } = doc.basis.compensation_years;
      const inDb = (countIn.get(doc.specialty.slug, code, code, from, to) as { n: number }).n;
      const floor = code ? 3 : 5;
      expect(doc.n!, p).toBeGreaterThanOrEqual(floor);
      // outlier exclusion only removes reports; the published count moves by at most 2 (README: Disclosure control)
      expect(doc.n!, p).toBeLessThanOrEqual(inDb + 2);
      if (doc.p10 !== null || doc.p90 !== null) expect(doc.n!, p).toBeGreaterThanOrEqual(15);
      if (doc.n! <= 24) expect(doc.median % 1000, p).toBe(0);
      checked++;
    }
    sql.close();
    expect(checked).toBeGreaterThan(70); // 30 specialties and 51 specialty-in-state cells of the headline years
    expect(verifyBuildDir(r.dir)).toEqual([]);
  });

  it('a thin specialty is withheld nationally: figures null, n null, a notice, and never estimated', () => {
    const r = built();
    const specs = readJson<{ specialties: { slug: string; n: number | null; median: number | null; withheld: boolean }[]; notice?: string }>(
      join(r.dir, 'public/data/api/v1/specialties.json'),
    );
    const thin = specs.specialties.filter((s) => s.withheld);
    expect(thin.length).toBeGreaterThan(0);
    expect(specs.notice).toMatch(/withheld/i);
    for (const s of thin) {
      expect(s.n).toBeNull();
      expect(s.median).toBeNull();
      const doc = readJson<Record<string, unknown>>(join(r.dir, `public/data/api/v1/specialties/${s.slug}.json`));
      expect(doc.notice).toMatch(/fewer than 5 approved reports/);
      for (const k of ['n', 'median', 'mean', 'p10', 'p25', 'p75', 'p90']) expect(doc[k], `${s.slug}.${k}`).toBeNull();
      expect(doc.top_states).toEqual([]);
    }
    const cell = readJson<Record<string, unknown>>(join(r.dir, 'public/data/api/v1/specialties/family-medicine/states/wyoming.json'));
    expect(cell.withheld).toBe(true);
    expect(cell.notice).toMatch(/fewer than 3/);
  });
});

describe('validation before publishing', () => {
  it('an artifact tampered with after computing fails validation; nothing is published', () => {
    const shared = golden('tamper');
    const out = shared.dist;
    const good = { id: shared.buildId };
    const tamper = (path: string, bytes: Buffer) => {
      if (!path.endsWith('specialties/medical-genetics.json')) return bytes;
      const doc = JSON.parse(bytes.toString());
      Object.assign(doc, { median: 250_000, n: 2, withheld: false });
      delete doc.notice;
      return Buffer.from(JSON.stringify(doc));
    };
    let error: unknown;
    try {
      goldenBuild(db, out, { tamper, now: () => new Date(FIXED_NOW.getTime() + 1000) });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(BuildError);
    expect((error as BuildError).problems.join('\n')).toMatch(/medical-genetics\.json: .*floor 5/);
    expect(currentBuildId(out)).toBe(good.id);
    expect(listBuilds(out).map((b) => b.id)).toEqual([good.id]);
    expect(listFiles(join(out, 'builds')).some((p) => p.includes('.staging'))).toBe(false);
  });

  it('a published build edited on disk fails `builds verify` (hash), and a re-hashed floor breach fails too', () => {
    const r = { dir: golden('verify').buildDir };
    const copy = join(work, 'verify-copy');
    cpSync(r.dir, copy, { recursive: true });
    const rel = 'public/data/api/v1/specialties/family-medicine/states/wyoming.json';
    const doc = readJson<Record<string, unknown>>(join(copy, rel));
    Object.assign(doc, { median: 123_000, n: 1, withheld: false });
    const text = JSON.stringify(doc);
    writeFileSync(join(copy, rel), text);
    expect(verifyBuildDir(copy).join('\n')).toMatch(/wyoming\.json: SHA-256 differs|wyoming\.json: size/);
    // Even with a manifest rewritten to match, the floor audit refuses it.
    const manifest = readJson<{ files: Record<string, { sha256: string; bytes: number }> }>(join(copy, 'manifest.json'));
    manifest.files[rel]!.sha256 = sha256(text);
    manifest.files[rel]!.bytes = Buffer.byteLength(text);
    writeFileSync(join(copy, 'manifest.json'), JSON.stringify(manifest));
    expect(verifyBuildDir(copy).join('\n')).toMatch(/wyoming\.json: .*1 reports \(floor 3\)/);
  });
});

describe('sanity diff, retention, rollback', () => {
  it('refuses a build whose report count collapses, unless forced', () => {
    const shared = golden('diff');
    const out = shared.dist;
    const first = { id: shared.buildId };
    const thinDb = join(work, 'thin.db');
    cpSync(db, thinDb);
    const sql = new Database(thinDb);
    sql.prepare("UPDATE reports SET status = 'rejected' WHERE id % 2 = 0").run();
    sql.close();
    expect(() => goldenBuild(thinDb, out, { now: () => new Date(FIXED_NOW.getTime() + 1000) })).toThrow(/differs too much/);
    expect(currentBuildId(out)).toBe(first.id);
    const forced = goldenBuild(thinDb, out, { force: true, now: () => new Date(FIXED_NOW.getTime() + 2000) });
    expect(forced.diffWarnings.join('\n')).toMatch(/approved reports fell/);
    expect(currentBuildId(out)).toBe(forced.id);
  });

  it('keeps the newest builds, lists them, and rolls back through the CLI', async () => {
    const shared = golden('keep');
    const out = shared.dist;
    const ids: string[] = [shared.buildId];
    for (let i = 1; i < 3; i++) ids.push(goldenBuild(db, out, { keep: 2, now: () => new Date(FIXED_NOW.getTime() + i * 1000) }).id);
    expect(listBuilds(out).map((b) => b.id)).toEqual(ids.slice(1).reverse());
    const io = captureIo();
    expect(await main(['node', 'physpay', 'builds', 'list', '--out', out], io)).toBe(0);
    expect(io.lines[0]).toContain(`* ${ids[2]}`);
    expect(await main(['node', 'physpay', 'builds', 'rollback', '--out', out], io)).toBe(0);
    expect(currentBuildId(out)).toBe(ids[1]);
    expect(readlinkSync(join(out, 'current'))).toBe(join('builds', ids[1]!));
    expect(await main(['node', 'physpay', 'builds', 'rollback', 'no-such-build', '--out', out], io)).toBe(1);
    expect(io.errors.join('\n')).toMatch(/no build no-such-build/);
    expect(await main(['node', 'physpay', 'builds', 'verify', '--out', out], io)).toBe(0);
  });

  it('the CLI prints one summary line when not on a TTY and fails clearly on a missing DB', async () => {
    const io = captureIo();
    const out = fresh('cli');
    const code = await main(['node', 'physpay', 'build', '--db', db, '--out', out, '--build-date', '2026-11-16', '--no-fsync', '--no-precompress'], io);
    expect(code).toBe(0);
    expect(io.lines).toHaveLength(1);
    expect(io.lines[0]).toMatch(/^built \S+: [\d,]+ reports used of 1,\d{3} approved, \d,\d{3} files written, [\d.]+ MB, [\d.]+ s \(SYNTHETIC demo data\); published as current$/);
    const bad = captureIo();
    expect(await main(['node', 'physpay', 'build', '--db', join(work, 'missing.db'), '--out', out], bad)).toBe(1);
    expect(bad.errors.join('\n')).toMatch(/reports DB not found/);
    expect(existsSync(join(out, 'current'))).toBe(true);
  });
});

describe('publishing policy: no-change builds, pins, --json (through the CLI)', () => {
  // One dist-data folder for the whole block: each test starts from the state the previous one left.
  const out = () => join(work, 'policy');
  let clock = FIXED_NOW.getTime();
  async function cli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const io = { ...captureIo(), now: () => new Date((clock += 60_000)) };
    const code = await main(['node', 'physpay', ...args], io);
    return { code, out: io.lines, err: io.errors };
  }
  const build = (...extra: string[]) =>
    cli('build', '--db', db, '--out', out(), '--base-url', 'https://physpay.example', '--no-fsync', '--no-precompress', ...(extra.includes('--build-date') ? [] : ['--build-date', '2026-11-16']), ...extra);
  const ids = () => listBuilds(out()).map((b) => b.id);
  const noStaging = () => expect(listFiles(join(out(), 'builds')).some((p) => p.includes('.staging'))).toBe(false);
  let first = '';

  it('build --json prints exactly one JSON object on stdout for a published build', async () => {
    const r = await build('--json');
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    const j = JSON.parse(r.out[0]!) as Record<string, unknown>;
    first = currentBuildId(out())!;
    expect(j).toMatchObject({
      status: 'published', build_id: first, current: first, previous: null, pinned: false,
      reports_used: expect.any(Number), files: expect.any(Number), files_changed: j.files, bytes: expect.any(Number),
      synthetic: true, base_url: 'https://physpay.example', pruned: [], warnings: [],
    });
    expect(j.approved_reports as number).toBeGreaterThan(1000);
    expect(j.reports_used as number).toBeGreaterThan(0);
    expect(j.files as number).toBeGreaterThan(2000);
    expect(typeof j.duration_s).toBe('number');
    expect(j.message).toMatch(/^built \S+: .*; published as current$/);
  });

  it('a build whose files equal the current build\'s (another build date and clock) is not published: one line, exit 0, no folder left', async () => {
    const j = await build('--json', '--build-date', '2026-11-18');
    expect(j.err).toEqual([]);
    expect(j.code).toBe(0);
    expect(j.out).toHaveLength(1);
    const unchanged = JSON.parse(j.out[0]!) as Record<string, unknown>;
    expect(unchanged).toMatchObject({ status: 'unchanged', build_id: null, current: first, previous: first, files_changed: 0 });
    // `message` is the line printed without --json (the CLI prints the same `outcomeLine` either way)
    expect(unchanged.message).toMatch(new RegExp(`^no change: same content as the current build ${first} \\([\\d,]+ reports used of 1,\\d{3} approved, \\d,\\d{3} files, 0 changed\\); nothing published$`));
    expect(ids()).toEqual([first]);
    expect(currentBuildId(out())).toBe(first);
    noStaging();
  });

  it('while the current build is pinned, a changed build is validated but not published: exit 4, or 0 with --allow-pinned', async () => {
    const pin = await cli('builds', 'pin', '--out', out());
    expect(pin.code).toBe(0);
    expect(pin.out).toEqual([`pinned ${first}; physpay build will not replace it while it is current (physpay builds unpin ${first} to undo)`]);

    // a nightly job sees that nothing was published (exit 4), with the line it would print without --json
    const j = await build('--publisher', 'PhysPay Policy', '--json');
    expect(j.err).toEqual([]);
    expect(j.code).toBe(4);
    expect(j.out).toHaveLength(1);
    const pinned = JSON.parse(j.out[0]!) as Record<string, unknown>;
    expect(pinned).toMatchObject({ status: 'pinned', build_id: null, current: first, previous: first, pinned: true });
    expect(pinned.files_changed as number).toBeGreaterThan(0);
    expect(pinned.message).toMatch(new RegExp(`^not published: the current build ${first} is pinned; the new build \\([\\d,]+ reports used of 1,\\d{3} approved, \\d,\\d{3} files, [\\d,]+ changed\\) was validated and discarded \\(physpay builds unpin ${first} to publish again, or --allow-pinned to accept this\\)$`));
    expect(ids()).toEqual([first]);
    noStaging();

    // while a pin is meant to last (an investigation), --allow-pinned makes it a success
    const allowed = await build('--publisher', 'PhysPay Policy', '--allow-pinned');
    expect(allowed.code).toBe(0);
    expect(allowed.out).toEqual([expect.stringMatching(new RegExp(`^not published: the current build ${first} is pinned`))]);
    expect(ids()).toEqual([first]);
  });

  it('builds list shows the pin; after unpin the next changed build is published', async () => {
    const list = await cli('builds', 'list', '--out', out(), '--json');
    expect(list.out).toHaveLength(1);
    expect(JSON.parse(list.out[0]!)).toMatchObject({ out: out(), current: first, builds: [{ id: first, current: true, pinned: true, reports_used: expect.any(Number) }] });
    expect((await cli('builds', 'list', '--out', out())).out).toEqual([expect.stringMatching(new RegExp(`^\\* ${first} .*, pinned$`))]);

    const unpin = await cli('builds', 'unpin', '--out', out());
    expect(unpin.code).toBe(0);
    expect(unpin.out).toEqual([`unpinned ${first}`]);
    const published = await build('--publisher', 'PhysPay Policy', '--json');
    expect(published.code).toBe(0);
    expect(JSON.parse(published.out[0]!)).toMatchObject({ status: 'published', previous: first, pinned: false });
    expect(currentBuildId(out())).not.toBe(first);
  });

  it('--keep never prunes a pinned build; pin and unpin name unknown builds as usage errors', async () => {
    const second = currentBuildId(out())!;
    expect((await cli('builds', 'pin', first, '--out', out())).code).toBe(0); // not current: kept, not frozen
    const r = await build('--publisher', 'PhysPay Policy 2', '--keep', '1', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out[0]!) as { status: string; build_id: string; pruned: string[] };
    expect(j.status).toBe('published');
    expect(j.pruned).toEqual([second]);
    expect(ids()).toEqual([j.build_id, first]);

    const unknown = await cli('builds', 'pin', 'no-such-build', '--out', out());
    expect(unknown.code).toBe(2);
    expect(unknown.err).toEqual([expect.stringMatching(/^physpay: no build no-such-build in .*physpay builds list/)]);
    const notPinned = await cli('builds', 'unpin', j.build_id, '--out', out());
    expect(notPinned.code).toBe(2);
    expect(notPinned.err).toEqual([expect.stringMatching(new RegExp(`^physpay: build ${j.build_id} is not pinned`))]);
  });
});
