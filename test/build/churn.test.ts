/**
 * Nightly churn: a build writes only the files whose content the new reports changed (README: Build, "What
 * a nightly build rewrites"). The golden DB is built, a few approved cardiology reports are added in one
 * state, and the next night's build goes into the same out dir; the files it changed (content hash, so the
 * access date does not count) must be exactly the files that hold a figure or date the new reports moved,
 * each listed below with the reason, and every other file is reused (a hard link, same bytes, same ETag).
 *
 * The expected set is derived from what the files contain, never from what changed: the cells the reports
 * are in, the indexes listing those cells, the files that show the specialty's national figures, and the
 * state cells whose counted reports changed (the new reports moved the specialty's outlier fences). Every
 * other cell keeps its figures: with disclosure method 3 a cell's noise depends on its own reports only (its
 * cell key, relative to its own figures), which is checked for every state cell whose reports did not change.
 * A second night adds one report to a withheld cell of a withheld specialty: no file of that specialty
 * changes (a withheld cell's as_of never looks at its own reports).
 */
import { ARCHIVE_PATH, ARCHIVE_SHA256_PATH, DATA_PACKAGE_PATH, archivedToken } from '../../build/compute/data-package.ts';
import { RELEASES_PATH, type ReleasesFeed } from '../../build/contract/releases.ts';
import { accessDateToken } from '../../build/contract/manifest.ts';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FIXED_NOW, goldenBuild, goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { openReportsDb } from '../../build/db/open.ts';
import { readDataset } from '../../build/source/read.ts';
import type { NationalFacts } from '../../build/compute/national.ts';
import { openPopulations } from '../../build/compute/headline.ts';
import type { Dataset } from '../../build/compute/dataset.ts';
import { readManifest } from '../../build/emit/store.ts';
import { feedPaths, pagePaths, type SpecialtyFeed, type SpecialtyStateFeed, type StateFeed, type WrvuFeed } from '../../build/contract/open-feeds.ts';
import { keyedPaths } from '../../build/contract/keyed-artifacts.ts';
import { csvPaths } from '../../build/compute/open-csv.ts';
import { NO_FIGURES_AS_OF, basisOf } from '../../build/compute/open-feeds.ts';
import { pageFile } from '../../build/pages/site.ts';
import { fmtMoney } from '../../build/pages/html.ts';
import type { Manifest } from '../../build/contract/manifest.ts';
import { RELEASE_FILES as RELEASE_FILE_SET, type BuildResult } from '../../build/run-build.ts';

const SP = 'cardiology';
const ST = { code: 'CA', slug: 'california' };
/** a specialty withheld nationally in the golden DB (one report, in Washington) */
const WITHHELD_SP = 'colon-rectal-surgery';
const WITHHELD_ST = { code: 'WY', slug: 'wyoming' };
const DAY = 86_400_000;

const tmp = useTempDir('churn');
let dir: string;
let out: string;
let db: string;
let first: Pick<BuildResult, 'id' | 'dir'>;
let second: BuildResult;
let third: BuildResult;
let m1: Manifest;
let m2: Manifest;
let m3: Manifest;
/** the reports each build read (record keys: the same report has the same key in every build) and their outlier decisions */
const read1: { ds: Dataset; facts: NationalFacts }[] = [];

function addReports(rows: { specialty: string; state: string; total: number; wrvus: number | null; submitted: string }[]): void {
  const d = openReportsDb(db);
  try {
    const ids = new Map((d.prepare('SELECT id, slug FROM specialties').all() as { id: number; slug: string }[]).map((r) => [r.slug, r.id]));
    const ins = d.prepare(`INSERT INTO reports (specialty_id, state, year, total_compensation, base_salary, bonus, hours_per_week,
      years_in_practice, practice_setting, employment_type, wrvus, submitted_at, status, moderated_at)
      VALUES (?, ?, 2025, ?, NULL, NULL, 55, 12, 'hospital', 'employed', ?, ?, 'approved', ?)`);
    d.transaction(() => {
      for (const r of rows) ins.run(ids.get(r.specialty)!, r.state, r.total, r.wrvus, r.submitted, r.submitted);
    })();
  } finally {
    d.close();
  }
}

/** The reports the open cells count (the headline population: headline years, full-time basis) and their outlier decisions. */
function readDb(): { ds: Dataset; facts: NationalFacts } {
  const d = openReportsDb(db, { readonly: true });
  try {
    const ds = readDataset(d);
    return openPopulations(ds, basisOf(ds)).headline;
  } finally {
    d.close();
  }
}

/**
 * The reports an open cell of build `k` (0: first, 1: second) counts, by record key: those of the state (and of
 * the specialty, when given) inside their specialty's national fences. Its figures are a function of this set.
 */
function cellReports(k: number, stateSlug: string, specialtySlug?: string): string {
  const { ds, facts } = read1[k]!;
  const st = ds.states.findIndex((s) => s.slug === stateSlug);
  const sp = specialtySlug === undefined ? -1 : ds.specialties.findIndex((s) => s.slug === specialtySlug);
  const R = ds.reports;
  const keys: string[] = [];
  for (let i = 0; i < R.count; i++) {
    if (R.state[i] === st && (sp < 0 || R.specialty[i] === sp) && facts.openTotal[i] === 1) keys.push(`${R.keyLo[i]}:${R.keyHi[i]}`);
  }
  return keys.sort().join(' ');
}

/**
 * A cell's own figures (not what it shows of other cells): its summary, cost-of-living adjusted median and, when
 * published, as_of (a withheld cell's as_of is its published parent's: see the next test).
 */
const ownFigures = (doc: Record<string, unknown>) =>
  JSON.stringify(['n', 'median', 'mean', 'p10', 'p25', 'p75', 'p90', 'rounded', 'withheld', 'col_adjusted_median', ...(doc.withheld ? [] : ['as_of'])].map((k) => doc[k]));

const pub = (p: string) => `public/${p}`;
/** rewritten by every release */
const RELEASE_FILES = [...RELEASE_FILE_SET];
const page = (urlPath: string) => pub(pageFile(urlPath));
const read = <T>(b: Pick<BuildResult, 'dir'>, feedPath: string): T => JSON.parse(readFileSync(join(b.dir, pub(feedPath)), 'utf8')) as T;
/** A feed's content without its dates: the figures and everything else it shows. */
const figures = (doc: Record<string, unknown>) => JSON.stringify({ ...doc, as_of: undefined, attribution: undefined });
const changedPaths = (a: Manifest, b: Manifest) => {
  const out = Object.keys(b.files).filter((p) => a.files[p]?.content_hash !== b.files[p]!.content_hash);
  return [...out, ...Object.keys(a.files).filter((p) => !(p in b.files))].sort();
};

beforeAll(() => {
  dir = tmp.path;
  out = join(dir, 'dist');
  const golden = goldenBuildIn(dir, out); // the run's shared golden build, copied
  db = golden.db;
  first = { id: golden.buildId, dir: golden.buildDir };
  read1.push(readDb());
  // the next night: three approved cardiology reports from California, near the specialty's median, with wRVUs
  addReports([455_000, 462_000, 470_000].map((total, k) => ({
    specialty: SP, state: ST.code, total, wrvus: 6_900 + 100 * k, submitted: '2026-11-16T10:00:00.000Z',
  })));
  read1.push(readDb());
  second = goldenBuild(db, out, { buildDate: '2026-11-17', now: () => new Date(FIXED_NOW.getTime() + DAY) });
  // the night after: one report in a withheld cell of a specialty withheld nationally
  addReports([{ specialty: WITHHELD_SP, state: WITHHELD_ST.code, total: 480_000, wrvus: null, submitted: '2026-11-17T10:00:00.000Z' }]);
  third = goldenBuild(db, out, { buildDate: '2026-11-18', now: () => new Date(FIXED_NOW.getTime() + 2 * DAY) });
  m1 = readManifest(first.dir);
  m2 = readManifest(second.dir);
  m3 = readManifest(third.dir);
}, 180_000);

describe('nightly churn: new reports in one specialty in one state', () => {
  it('changes exactly the files that hold a figure or date the new reports moved; every other file is reused', () => {
    expect(second.published).toBe(true);
    const states = read<{ states: { state: { slug: string } }[] }>(second, feedPaths.states()).states.map((s) => s.state.slug);
    const expected = new Map<string, string>();
    const expect1 = (path: string, why: string) => expected.set(path, why);

    // 1. The cells the new reports are in (their figures and as_of move).
    expect1(pub(feedPaths.specialty(SP)), 'the specialty nationally');
    expect1(pub(feedPaths.wrvu(SP)), 'the specialty\'s $/wRVU (the reports give wRVUs)');
    expect1(pub(feedPaths.specialtyState(SP, ST.slug)), 'the specialty in the state');
    expect1(pub(feedPaths.state(ST.slug)), 'the state, all specialties');
    expect1(page(pagePaths.specialty(SP)), 'shows the specialty, its $/wRVU and its states');
    expect1(page(pagePaths.specialtyState(SP, ST.slug)), 'shows the specialty in the state');
    expect1(page(pagePaths.state(ST.slug)), 'shows the state');
    for (const f of [feedPaths.specialty(SP), feedPaths.wrvu(SP), feedPaths.specialtyState(SP, ST.slug), feedPaths.state(ST.slug)]) {
      const [a, b] = [read<{ n: number; median: number; mean: number }>(first, f), read<{ n: number; median: number; mean: number }>(second, f)];
      // the new reports are counted there: 3 more, each count moved by up to 2 (README: Disclosure control, counts)
      expect(Math.abs(b.n - (a.n + 3)), `${f}: ${a.n} -> ${b.n}`).toBeLessThanOrEqual(4);
      expect([b.n, b.median, b.mean], f).not.toEqual([a.n, a.median, a.mean]);
    }

    // 2. The indexes listing those cells (their n, figures, as_of).
    expect1(pub(feedPaths.specialties()), 'lists the specialty\'s national figures');
    expect1(pub(csvPaths.specialties()), 'lists the specialty\'s national figures');
    expect1(page(pagePaths.specialtiesIndex()), 'lists the specialty\'s national figures');
    expect1(pub(feedPaths.states()), 'lists the state\'s figures');
    expect1(pub(csvPaths.states()), 'lists the state\'s figures');
    expect1(pub(csvPaths.specialtyStates()), 'lists the specialty in the state (and every state\'s national median)');
    // the whole offer's CSV: each of the specialty's rows carries its feed's as_of, which moved (asserted below)
    expect1(pub(csvPaths.specialtyOffer()), 'its rows carry the specialty\'s as_of (and whole-offer figures)');
    expect1(page(pagePaths.statesIndex()), 'lists the state\'s figures');
    expect1(page(pagePaths.license()), 'cites specialties.json (its n and as_of) as the example');
    expect1(page('/'), 'the front page: specialties.json\'s headline figures and ranking');
    const spIndex = read<{ n: number; as_of: string; attribution: string }>(second, feedPaths.specialties());
    expect(readFileSync(join(second.dir, page('/')), 'utf8')).toContain(spIndex.n.toLocaleString('en-US'));
    expect(readFileSync(join(second.dir, page(pagePaths.license())), 'utf8')).toContain(`data as of ${spIndex.as_of}`);
    // sitemap.xml: lastmod is the as_of of each indexable page; the specialty's page moved
    expect(read<SpecialtyFeed>(second, feedPaths.specialty(SP)).as_of).not.toBe(read<SpecialtyFeed>(first, feedPaths.specialty(SP)).as_of);
    expect1(pub('sitemap.xml'), 'lastmod of the pages whose as_of moved');

    // 3. The keyed API's files of the specialty, its index (counts, data date), and the methodology page
    //    (keyed vs open national figures of every specialty; the build's disclosure-accuracy table).
    expect1(keyedPaths.specialty(SP), 'keyed figures of the specialty');
    expect1(keyedPaths.reports(SP), 'keyed report columns of the specialty');
    expect1(keyedPaths.index(), 'keyed index: counts per specialty, data_as_of');
    const nat2 = read<SpecialtyFeed>(second, feedPaths.specialty(SP));
    expect(readFileSync(join(second.dir, page(pagePaths.methodology())), 'utf8')).toContain(fmtMoney(nat2.median!));
    expect1(page(pagePaths.methodology()), 'shows the specialty\'s open and keyed national figures');

    // 4. Every file showing the specialty's national figures: each of its state cells (national_median,
    //    difference_from_national_pct; a cell's own figures move only where its reports changed: the new
    //    reports moved the specialty's fences), their pages, and state pages / feeds listing one of its cells.
    const nat1 = read<SpecialtyFeed>(first, feedPaths.specialty(SP));
    expect(nat2.median).not.toBe(nat1.median);
    let spCellsKept = 0;
    for (const st of states) {
      const f = feedPaths.specialtyState(SP, st);
      expect(read<SpecialtyStateFeed>(second, f).national_median).toBe(nat2.median);
      expect1(pub(f), 'shows the specialty\'s national median');
      expect1(page(pagePaths.specialtyState(SP, st)), 'shows the specialty\'s national median');
      const [a, b] = [read<SpecialtyStateFeed>(first, f), read<SpecialtyStateFeed>(second, f)];
      if (cellReports(0, st, SP) === cellReports(1, st, SP)) {
        // the same reports: the same figures, whatever the reports added elsewhere did to the specialty
        expect(ownFigures(b as never), `${SP} in ${st}`).toBe(ownFigures(a as never));
        spCellsKept++;
      }
      // the state page's table shows each specialty's n, median and difference from the national median
      if (a.n !== b.n || a.median !== b.median || a.difference_from_national_pct !== b.difference_from_national_pct) {
        expect1(page(pagePaths.state(st)), 'its table shows the specialty\'s cell, whose figures moved');
      }
    }

    expect(spCellsKept, 'state cells of the specialty whose reports did not change').toBeGreaterThan(0);

    // 5. States: a state feed shows the specialty's national median where it ranks among the state's top
    //    specialties; its own figures are those of its reports (all specialties), whose noise depends on them
    //    alone (method 3: no national scale), so they move only where the reports it counts changed: the
    //    state of the new reports, and a state where a report of the specialty crossed its moved fences.
    expect(cellReports(0, ST.slug)).not.toBe(cellReports(1, ST.slug));
    let statesKept = 0;
    for (const st of states) {
      const [a, b] = [read<StateFeed>(first, feedPaths.state(st)), read<StateFeed>(second, feedPaths.state(st))];
      const listsSp = [a, b].some((d) => d.top_specialties.some((t) => t.specialty.slug === SP));
      const figuresMoved = figures(a) !== figures(b);
      const reportsChanged = cellReports(0, st) !== cellReports(1, st);
      if (!reportsChanged) {
        // the same reports give the same figures and date, however many reports were added elsewhere
        expect(ownFigures(b as never), st).toBe(ownFigures(a as never));
        if (!listsSp) expect(figuresMoved, `${st}: nothing it shows changed`).toBe(false);
        statesKept++;
      }
      if (listsSp || figuresMoved) {
        expect1(pub(feedPaths.state(st)), listsSp ? 'lists the specialty among its top specialties' : 'the reports it counts changed');
        expect1(page(pagePaths.state(st)), 'shows the state\'s figures');
      }
    }
    // every state but the new reports' (and any whose counted reports crossed the moved fences) keeps its figures
    expect(statesKept).toBeGreaterThan(states.length / 2);

    // 6. The bulk download: the data package describes the CSVs (their bytes and hashes), the archive holds
    //    every feed and CSV; both change exactly when one of their files did (checked, not assumed).
    const archived = (p: string) => p.startsWith('public/data/api/v1/') && /\.(json|csv)$/.test(p);
    if ([...expected.keys()].some((p) => p.startsWith('public/data/api/v1/') && p.endsWith('.csv'))) expect1(pub(DATA_PACKAGE_PATH), 'describes the CSVs that changed');
    if ([...expected.keys()].some(archived)) {
      expect1(pub(ARCHIVE_PATH), 'holds the feeds and CSVs that changed');
      expect1(pub(ARCHIVE_SHA256_PATH), 'the archive\'s checksum');
    }

    // 7. The release: every release rewrites its list, the changelog page and CITATION.cff.
    for (const p of RELEASE_FILES) expect1(p, 'names the new release');

    const changed = changedPaths(m1, m2);
    const unexpected = changed.filter((p) => !expected.has(p));
    const missing = [...expected.keys()].filter((p) => !changed.includes(p));
    expect({ unexpected: unexpected.slice(0, 20), unexpectedCount: unexpected.length, missing }).toEqual({ unexpected: [], unexpectedCount: 0, missing: [] });
    expect(second.filesChanged).toBe(expected.size);
    expect(second.filesReused).toBe(second.summary.files - expected.size);
    expect(second.filesReused).toBeGreaterThan(second.summary.files * 0.9);

    // every other file is the previous build's (a hard link: same bytes, same content hash, so the same ETag)
    for (const [path, entry] of Object.entries(m2.files)) {
      if (expected.has(path)) continue;
      const before = m1.files[path]!;
      expect(entry.content_hash, path).toBe(before.content_hash);
      expect(entry.sha256, path).toBe(before.sha256);
      expect(statSync(join(second.dir, path)).ino, path).toBe(statSync(join(first.dir, path)).ino);
    }
  });

  it('a withheld cell\'s as_of is its published parent\'s, or the fixed date, never its own reports\'', () => {
    const states = read<{ states: { state: { slug: string } }[] }>(second, feedPaths.states()).states.map((s) => s.state.slug);
    const specialties = read<{ specialties: { slug: string }[] }>(second, feedPaths.specialties()).specialties.map((s) => s.slug);
    let withheldCells = 0;
    for (const b of [first, second, third]) {
      for (const sp of specialties) {
        const nat = read<SpecialtyFeed>(b, feedPaths.specialty(sp));
        const parent = nat.withheld ? NO_FIGURES_AS_OF : nat.as_of;
        const wrvu = read<WrvuFeed>(b, feedPaths.wrvu(sp));
        if (wrvu.withheld) expect(wrvu.as_of, `${sp} wRVU`).toBe(parent);
        if (nat.withheld) expect(nat.as_of, sp).toBe(NO_FIGURES_AS_OF);
        for (const st of states) {
          const cell = read<SpecialtyStateFeed>(b, feedPaths.specialtyState(sp, st));
          if (!cell.withheld) continue;
          withheldCells++;
          expect(cell.as_of, `${sp} in ${st}`).toBe(parent);
          expect(cell.attribution).toContain(`(data as of ${parent};`);
        }
      }
      for (const st of states) {
        const d = read<StateFeed>(b, feedPaths.state(st));
        if (d.withheld) expect(d.as_of, st).toBe(NO_FIGURES_AS_OF);
      }
    }
    expect(withheldCells).toBeGreaterThan(1000);
  });
});

describe('nightly churn: a report in a withheld cell', () => {
  it('changes no file of the withheld cell or of its specialty withheld nationally (nothing tells it arrived)', () => {
    expect(third.published).toBe(true);
    expect(read<SpecialtyFeed>(third, feedPaths.specialty(WITHHELD_SP)).withheld).toBe(true);
    expect(read<SpecialtyStateFeed>(third, feedPaths.specialtyState(WITHHELD_SP, WITHHELD_ST.slug)).withheld).toBe(true);
    const changed = changedPaths(m2, m3);
    const ofSpecialty = (p: string) => p.includes(`/${WITHHELD_SP}.`) || p.includes(`/${WITHHELD_SP}/`);
    const publicOfSpecialty = Object.keys(m3.files).filter((p) => p.startsWith('public/') && ofSpecialty(p));
    expect(publicOfSpecialty.length).toBeGreaterThan(100); // its feed, wRVU feed, page, and a feed and page per state
    expect(changed.filter((p) => p.startsWith('public/') && ofSpecialty(p))).toEqual([]);
    // nor any index of specialties (its entry stays withheld; the index's as_of is that of published cells)
    for (const p of [feedPaths.specialties(), csvPaths.specialties()]) expect(changed).not.toContain(pub(p));
    expect(changed).not.toContain(page(pagePaths.specialtiesIndex()));
    // what does change: the state's cell of all specialties counts the report (by design), the indexes of
    // states, and the keyed API's files of the specialty
    expect(changed).toEqual(expect.arrayContaining([pub(feedPaths.state(WITHHELD_ST.slug)), pub(feedPaths.states()), keyedPaths.reports(WITHHELD_SP)]));
  });
});

describe('releases: what changed, from the feeds of two builds', () => {
  const cellFeeds = (m: Manifest) => Object.keys(m.files).filter((p) => /^public\/data\/api\/v1\/(specialties\/[^/]+(\/states\/[^/]+)?|states\/[^/]+)\.json$/.test(p));
  const doc = (b: Pick<BuildResult, 'dir'>, p: string) => JSON.parse(readFileSync(join(b.dir, p), 'utf8')) as { withheld: boolean; median: number | null; rounded: boolean; feed_url: string };

  it('lists each release with the cells newly published or withheld, the moves and the reports added, derived here from the two builds\' feeds', () => {
    const list = read<ReleasesFeed>(second, RELEASES_PATH);
    expect(list.releases.map((r) => r.release)).toEqual(['2026-11-17', '2026-11-16']);
    expect(list.latest).toBe('2026-11-17');
    const r = list.releases[0]!;
    const [sp1, sp2] = [read<{ n: number }>(first, feedPaths.specialties()), read<{ n: number }>(second, feedPaths.specialties())];
    expect(r.reports_used).toBe(sp2.n);
    expect(r.changes!.reports_added).toBe(sp2.n - sp1.n);
    // the three cardiology reports, all within the fences; only cardiology's count changed, and each published count
    // moves by up to 2, so the difference is within 4 of 3
    expect(Math.abs(r.changes!.reports_added - 3)).toBeLessThanOrEqual(4);
    expect(r.archive_sha256).toBe(readFileSync(join(second.dir, pub(ARCHIVE_SHA256_PATH)), 'utf8').split(' ')[0]);
    // the expected changes, from every cell feed of both builds
    const published: string[] = [];
    const withheld: string[] = [];
    let moved = 0;
    for (const p of cellFeeds(m2)) {
      const [a, b] = [doc(first, p), doc(second, p)];
      if (a.withheld && !b.withheld) published.push(b.feed_url);
      else if (!a.withheld && b.withheld) withheld.push(b.feed_url);
      else if (!b.withheld) {
        const unit = a.rounded || b.rounded ? 1000 : 1;
        const fields = ['median', 'mean', 'p10', 'p25', 'p75', 'p90'] as const;
        if (fields.some((f) => { const [x, y] = [(a as never)[f] as number | null, (b as never)[f] as number | null]; return x !== null && y !== null && Math.abs(y - x) > unit; })) moved++;
      }
    }
    expect(r.changes!.newly_published.count).toBe(published.length);
    expect(r.changes!.newly_withheld.count).toBe(withheld.length);
    expect(r.changes!.newly_published.cells.map((c) => c.feed_url).every((u) => published.includes(u))).toBe(true);
    expect(r.changes!.figures_moved).toBe(moved);
    expect(moved).toBeGreaterThan(0);
    // the specialty's national median moved: it is among the moves listed, with both releases' figures
    const nat = r.changes!.largest_moves.find((mv) => mv.cell.feed_url.endsWith(`/specialties/${SP}.json`));
    const [n1, n2] = [read<SpecialtyFeed>(first, feedPaths.specialty(SP)), read<SpecialtyFeed>(second, feedPaths.specialty(SP))];
    if (nat) expect([nat.from, nat.to]).toEqual([n1.median, n2.median]);
    else expect(r.changes!.largest_moves.length).toBe(10); // only when ten moved more, in percent
    // every feed names the release it last changed in: the changed ones this release, the others the first
    for (const p of cellFeeds(m2)) {
      const label = (JSON.parse(readFileSync(join(second.dir, p), 'utf8')) as { release: string }).release;
      expect(label, p).toBe(m2.files[p]!.content_hash === m1.files[p]!.content_hash ? '2026-11-16' : '2026-11-17');
    }
  });

  it('a report in a withheld cell: the release says no cell was newly published and no reports were added nationally', () => {
    const r = read<ReleasesFeed>(third, RELEASES_PATH).releases[0]!;
    expect(r.release).toBe('2026-11-18');
    expect(r.changes!.previous).toBe('2026-11-17');
    expect(r.changes!.newly_published.count).toBe(0);
    expect(r.changes!.reports_added).toBe(0);
    expect(JSON.stringify(r)).not.toContain(WITHHELD_SP);
  });

  it('the archive of a build that reuses files holds the served bytes (each feed with the release it last changed in), saying when the archive was built', () => {
    const out2 = join(tmp.path, 'extract-2');
    mkdirSync(out2);
    execFileSync('tar', ['-xzf', join(second.dir, pub(ARCHIVE_PATH)), '-C', out2]);
    let checked = 0;
    for (const [path, entry] of Object.entries(m2.files)) {
      if (!/^public\/data\/api\/v1\/.*\.(json|csv)$/.test(path) || path === pub(RELEASES_PATH)) continue;
      const served = readFileSync(join(second.dir, path), 'utf8').split(accessDateToken(entry.access_date ?? m2.build_date)).join(archivedToken(m2.build_date));
      expect(readFileSync(join(out2, 'physpay-open-data', path.slice('public/data/api/v1/'.length)), 'utf8'), path).toBe(served);
      checked++;
    }
    expect(checked).toBeGreaterThan(2000);
  });
});
