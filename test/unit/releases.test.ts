/** The pure core of releases: ids, what changed between two releases, the list document, the CFF. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nextReleaseId, releaseChanges, releaseEntry, releasesDocument, RELEASES_IN_DETAIL, type CellFigures } from '../../build/compute/releases.ts';
import { DISCLOSURE_METHOD_VERSION } from '../../build/compute/disclosure.ts';
import { laterRelease } from '../../build/compute/comparison.ts';
import { Release, ReleasesFeed, RELEASE_LIST_LIMIT } from '../../build/contract/releases.ts';
import { RELEASE_ID } from '../../build/contract/release-id.ts';
import { citationCff } from '../../build/pages/changelog.ts';

const cell = (path: string, o: Partial<CellFigures> & { median?: number | null } = {}): CellFigures => {
  const median = o.median === undefined ? 300_000 : o.median;
  return {
    path, name: o.name ?? path, feed_url: `https://x.example/${path}`, citation_url: `https://x.example/p/${path}`,
    withheld: o.withheld ?? median === null, rounded: o.rounded ?? false,
    figures: o.figures ?? { median, mean: median, p10: null, p25: median === null ? null : median - 50_000, p75: median === null ? null : median + 50_000, p90: null },
  };
};

describe('release ids', () => {
  it('the build date, then .2, .3 after the highest used that day', () => {
    expect(nextReleaseId([], '2026-11-24')).toBe('2026-11-24');
    expect(nextReleaseId([{ release: '2026-11-23' }], '2026-11-24')).toBe('2026-11-24');
    expect(nextReleaseId([{ release: '2026-11-24' }], '2026-11-24')).toBe('2026-11-24.2');
    expect(nextReleaseId([{ release: '2026-11-24.2' }, { release: '2026-11-24' }], '2026-11-24')).toBe('2026-11-24.3');
    // a release rolled back from keeps its id: never given twice, even with a gap
    expect(nextReleaseId([{ release: '2026-11-24' }, { release: '2026-11-24.9' }], '2026-11-24')).toBe('2026-11-24.10');
    expect(nextReleaseId([{ release: '2026-11-24.10' }], '2026-11-24')).toMatch(RELEASE_ID);
  });

  it('laterRelease orders by date, then by sequence as a number', () => {
    expect(laterRelease('2026-11-24', '2026-11-23')).toBe('2026-11-24');
    expect(laterRelease('2026-11-24', '2026-11-24.2')).toBe('2026-11-24.2');
    expect(laterRelease('2026-11-24.10', '2026-11-24.9')).toBe('2026-11-24.10');
    fc.assert(fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 50 }), (a, b) => {
      const id = (n: number) => (n === 1 ? '2026-01-02' : `2026-01-02.${n}`);
      expect(laterRelease(id(a), id(b))).toBe(id(Math.max(a, b)));
    }));
  });
});

describe('what changed', () => {
  it('newly published, newly withheld, moved beyond the rounding unit, reports added', () => {
    const before = [
      cell('a', { median: null }), // withheld -> published
      cell('b'), // published -> withheld
      cell('c', { median: 300_000 }), // moves by $1: within whole-dollar rounding
      cell('d', { median: 300_000 }), // moves by $2: counted
      cell('e', { median: 200_000, rounded: true }), // rounded: $1,000 is one step, not counted
      cell('f', { median: 200_000, rounded: true }), // rounded: $2,000 counted
      cell('gone'), // published, and its feed is gone
    ];
    const after = [
      cell('a'), cell('b', { median: null }), cell('c', { median: 300_001 }), cell('d', { median: 300_002 }),
      cell('e', { median: 201_000, rounded: true }), cell('f', { median: 202_000, rounded: true }), cell('new'),
    ];
    const c = releaseChanges('2026-11-23', before, after, { before: 100, after: 103 });
    expect(c.previous).toBe('2026-11-23');
    expect(c.reports_added).toBe(3);
    expect(c.newly_published.cells.map((x) => x.name)).toEqual(['a', 'new']);
    expect(c.newly_withheld.cells.map((x) => x.name)).toEqual(['b', 'gone']);
    // c moved $1 on median, mean and the quartiles: within rounding; e one rounding step
    expect(c.figures_moved).toBe(2);
    expect(c.largest_moves.map((m) => [m.cell.name, m.from, m.to, m.change_pct])).toEqual([['f', 200_000, 202_000, 1], ['d', 300_000, 300_002, 0]]);
  });

  it('lists at most RELEASE_LIST_LIMIT cells and moves, largest moves first; the counts stay complete', () => {
    const n = 30;
    const before = Array.from({ length: n }, (_, k) => cell(`m${String(k).padStart(2, '0')}`, { median: 100_000 }));
    const after = Array.from({ length: n }, (_, k) => cell(`m${String(k).padStart(2, '0')}`, { median: 100_000 + 1_000 * (k + 1) }));
    const fresh = Array.from({ length: n }, (_, k) => cell(`n${k}`));
    const c = releaseChanges('x', before, [...after, ...fresh], { before: 0, after: 0 });
    expect(c.figures_moved).toBe(n);
    expect(c.largest_moves).toHaveLength(RELEASE_LIST_LIMIT);
    expect(c.largest_moves[0]!.cell.name).toBe('m29');
    expect(c.newly_published.count).toBe(n);
    expect(c.newly_published.cells).toHaveLength(RELEASE_LIST_LIMIT);
  });
});

describe('the releases document', () => {
  const entry = (release: string, k: number, method = DISCLOSURE_METHOD_VERSION): Release => ({
    release, date: release.slice(0, 10), data_as_of: '2026-11-01', reports_used: 100 + k, specialties_published: 3, specialties: 44,
    archive_sha256: 'a'.repeat(64), disclosure_method: method,
    changes: { previous: '2026-09-01', reports_added: 1, newly_published: { count: 1, cells: [{ name: 'x', feed_url: 'https://x.example/a', citation_url: 'https://x.example/b' }] }, newly_withheld: { count: 0, cells: [] }, figures_moved: 0, largest_moves: [] },
  });
  it('newest first, valid, and releases beyond the newest 30 keep only their counts', () => {
    const history = Array.from({ length: 40 }, (_, k) => entry(`2026-09-${String(30 - (k % 30)).padStart(2, '0')}${k >= 30 ? '.2' : ''}`, k));
    const doc = releasesDocument({
      baseUrl: 'https://x.example', publisher: 'P', synthetic: false, keep: 7, kept: ['2026-11-24'], entry: entry('2026-11-24', 99), history, feedPath: 'data/api/v1/releases.json',
      changelogPath: '/changelog', methodologyPath: '/methodology', license: 'CC BY 4.0', licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
    });
    expect(ReleasesFeed.safeParse(doc).success).toBe(true);
    expect(doc.latest).toBe('2026-11-24');
    expect(doc.releases).toHaveLength(41);
    expect(doc.releases[RELEASES_IN_DETAIL - 1]!.changes!.newly_published.cells).toHaveLength(1);
    expect(doc.releases[RELEASES_IN_DETAIL]!.changes!.newly_published).toEqual({ count: 1, cells: [] });
    expect(doc.retention).toContain('last 7 releases');
    expect(doc.kept).toEqual(['2026-11-24']);
  });

  it('a kept release listed before releases had URLs gets them; one no longer kept does not', () => {
    const history = [entry('2026-11-23', 1), entry('2026-11-22', 2)];
    expect(history[0]!.urls).toBeUndefined();
    const doc = releasesDocument({
      baseUrl: 'https://x.example', publisher: 'P', synthetic: false, keep: 2, kept: ['2026-11-24', '2026-11-23'], entry: entry('2026-11-24', 3), history,
      feedPath: 'data/api/v1/releases.json', changelogPath: '/changelog', methodologyPath: '/methodology', license: 'CC BY 4.0', licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
    });
    expect(doc.releases[1]!.urls?.archive).toBe('https://x.example/data/api/v1/releases/2026-11-23/physpay-open-data.tar.gz');
    expect(doc.releases[2]!.urls).toBeUndefined();
    expect(ReleasesFeed.safeParse(doc).success).toBe(true);
  });

  it('each release records its disclosure method: this build\'s for the new entry, 2 for entries written before it was recorded', () => {
    const e = releaseEntry({
      release: '2026-11-24', date: '2026-11-24', dataAsOf: '2026-11-20', archiveSha256: 'b'.repeat(64), changes: null,
      specialties: { n: 120, count: 2, specialties: [{ withheld: false }, { withheld: true }], basis: { compensation_years: { from: 2023, to: 2025 } } } as never,
      baseUrl: 'https://x.example', datapackageSha256: 'c'.repeat(64),
    });
    expect(e.urls).toEqual({
      files: 'https://x.example/data/api/v1/releases/2026-11-24/',
      archive: 'https://x.example/data/api/v1/releases/2026-11-24/physpay-open-data.tar.gz',
      datapackage: 'https://x.example/data/api/v1/releases/2026-11-24/datapackage.json',
      citation_cff: 'https://x.example/data/api/v1/releases/2026-11-24/CITATION.cff',
    });
    expect(e.basis).toEqual({ from: 2023, to: 2025 });
    expect(e.disclosure_method).toBe(DISCLOSURE_METHOD_VERSION);
    expect(Release.parse(e)).toEqual(e);
    // a releases.json of an earlier build has no disclosure_method: its entries were perturbed by method 2
    const { disclosure_method: _m, ...old } = entry('2026-09-01', 0);
    expect(Release.parse(old).disclosure_method).toBe(2);
    expect(Release.safeParse({ ...old, disclosure_method: 0 }).success).toBe(false);
    // the list keeps every release's own method, also for releases beyond the newest 30 (counts only)
    const history = Array.from({ length: 35 }, (_, k) => Release.parse(k < 5 ? entry(`2026-10-${String(30 - k).padStart(2, '0')}`, k) : { ...old, release: `2026-09-${String(35 - k).padStart(2, '0')}` }));
    const doc = releasesDocument({
      baseUrl: 'https://x.example', publisher: 'P', synthetic: false, keep: 7, kept: [e.release], entry: e, history, feedPath: 'data/api/v1/releases.json',
      changelogPath: '/changelog', methodologyPath: '/methodology', license: 'CC BY 4.0', licenseUrl: 'https://creativecommons.org/licenses/by/4.0/',
    });
    expect(ReleasesFeed.parse(JSON.parse(JSON.stringify(doc)))).toEqual(doc);
    expect(doc.releases.map((r) => r.disclosure_method)).toEqual([DISCLOSURE_METHOD_VERSION, ...new Array(5).fill(DISCLOSURE_METHOD_VERSION), ...new Array(30).fill(2)]);
  });

  it('CITATION.cff names the release as version and quotes every string', () => {
    const cff = citationCff({ publisher: 'Ph "Pay"', baseUrl: 'https://x.example', latest: entry('2026-11-24.2', 0), licenseSpdx: 'CC-BY-4.0', changelogUrl: 'https://x.example/changelog' });
    expect(cff).toMatch(/^cff-version: 1\.2\.0\n/);
    expect(cff).toContain('version: "2026-11-24.2"');
    expect(cff).toContain('date-released: "2026-11-24"');
    expect(cff).toContain('  - name: "Ph \\"Pay\\""');
    expect(cff).toContain('type: dataset');
  });
});
