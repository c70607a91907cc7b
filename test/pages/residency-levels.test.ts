/**
 * The PGY level pages (build/pages/residency-levels.ts), rendered from a hand-made residency/pgy/{n}.json:
 * every figure from the feed (data-field paths into it), the level menu as plain links (PGY-1 is
 * /residency), hospitals without the level said in words (not listed, never $0), the state pages.
 */
import { describe, expect, it } from 'vitest';
import { ResidencyLevelFeed } from '../../build/contract/open-feeds.ts';
import { levelNav, renderResidencyLevelPage, renderResidencyLevelPages } from '../../build/pages/residency-levels.ts';
import type { SiteContext } from '../../build/pages/layout.ts';

const base = 'https://physpay.example';
const site: SiteContext = {
  baseUrl: base, publisher: 'PhysPay', synthetic: false, license: 'CC BY 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by/4.0/', winsorLower: 50_000, winsorUpper: 3_000_000, blsTopCode: 239_200,
};
const tx: { code: string; slug: string; name: string; region: 'South' | 'Northeast' } = { code: 'TX', slug: 'texas', name: 'Texas', region: 'South' };
const ny = { code: 'NY', slug: 'new-york', name: 'New York', region: 'Northeast' as const };
const row = (slug: string, state: typeof tx, salary: number, adj: number | null, rank: number | null, stateRank: number | null) => ({
  institution: { slug, name: `Hospital ${slug}`, city: 'City', state }, academic_year: '2026-2027', salary, col_adjusted: adj, cost_of_living_index: adj ? 95 : null,
  rank_position: rank, rank_of: rank ? 2 : null, state_rank: stateRank, state_rank_of: stateRank ? 1 : null, levels: 4,
  feed_url: `${base}/data/api/v1/residency/institutions/${slug}.json`, citation_url: `${base}/residency/${slug}`,
});
const feed = ResidencyLevelFeed.parse({
  n: null, as_of: '2026-10-19', citation_url: `${base}/residency/pgy/4`, methodology_url: `${base}/methodology`, license: 'CC BY 4.0',
  license_url: 'https://creativecommons.org/licenses/by/4.0/', attribution: 'PhysPay, "PGY-4 Resident Salary Data by Teaching Hospital," ...', title: 'PGY-4 Resident Salary Data by Teaching Hospital',
  publisher: 'PhysPay', feed_url: `${base}/data/api/v1/residency/pgy/4.json`, synthetic: false, release: '2026-11-16', modified: '2026-11-16',
  pgy: 4, max_pgy: 5, count: 3, without_level: 2, rank_basis: 'PGY-4 salary divided by ...',
  institutions: [row('a', tx, 70_000, 73_684, 2, 1), row('b', ny, 90_000, 72_000, 3, 1), row('c', tx, 60_000, null, null, null)],
});

describe('PGY level pages', () => {
  const html = renderResidencyLevelPage(site, feed);

  it('shows every hospital with the level, its figures from the feed, and the hospitals without it in words', () => {
    expect(html).toContain('<h1>PGY-4 resident salaries by teaching hospital</h1>');
    expect(html).toContain(`<article data-feed="${base}/data/api/v1/residency/pgy/4.json">`);
    for (const [i, r] of feed.institutions.entries()) {
      expect(html).toContain(`data-field="institutions[${i}].salary" data-value="${r.salary}"`);
      expect(html).toContain(`<a href="/residency/${r.institution.slug}">Hospital ${r.institution.slug}</a>`);
    }
    expect(html).toContain('data-field="institutions[0].col_adjusted" data-value="73684">$73,684<');
    expect(html).toContain('data-field="institutions[2].col_adjusted" data-value="null">not available<'); // no index: not adjusted, not ranked
    expect(html).toContain('2 hospitals\' scales end before PGY-4: not listed');
    expect(html).not.toContain('$0<');
    expect(html).toContain('<link rel="canonical" href="https://physpay.example/residency/pgy/4">');
    expect(html).toContain('href="/data/api/v1/residency/pgy-levels.csv"');
    expect(html).toContain('data-sortable');
  });

  it('links every level and every state as a plain page (no query string, no script needed)', () => {
    const nav = /<nav class="levels" aria-label="Postgraduate year">(.*?)<\/nav>/.exec(html)![1]!;
    expect([...nav.matchAll(/href="([^"]+)"/g)].map((m) => m[1])).toEqual(['/residency', '/residency/pgy/2', '/residency/pgy/3', '/residency/pgy/4', '/residency/pgy/5']);
    expect(nav).toContain('<a href="/residency/pgy/4" aria-current="page">PGY-4</a>');
    expect(html).toContain('<a href="/residency/pgy/4/new-york">New York</a> (1)');
    expect(html).toContain('<a href="/residency/pgy/4/texas">Texas</a> (2)');
    expect(html).not.toMatch(/href="[^"]*\?/);
    expect(levelNav(site, 1, 1)).toBe(''); // no menu when every scale is one year long
  });

  it('a state page lists only that state\'s hospitals, by state rank, with their national rank, and links its other levels', () => {
    const pages = renderResidencyLevelPages(site, [feed]);
    expect([...pages.keys()].sort()).toEqual(['/residency/pgy/4', '/residency/pgy/4/new-york', '/residency/pgy/4/texas']);
    const t = pages.get('/residency/pgy/4/texas')!;
    expect(t).toContain('<h1>PGY-4 resident salaries in Texas</h1>');
    expect(t).toContain('institutions[0].salary');
    expect(t).toContain('institutions[2].salary');
    expect(t).not.toContain('institutions[1].salary'); // New York's
    expect(t).toContain('<span data-field="institutions[0].rank_position" data-value="2">2</span> of <span data-field="institutions[0].rank_of" data-value="2">2</span>');
    const nav = /<nav class="levels" aria-label="Postgraduate year">(.*?)<\/nav>/.exec(t)![1]!;
    // PGY-1 in a state is the state page's residency section; only levels with a page here are linked
    expect([...nav.matchAll(/href="([^"]+)"/g)].map((m) => m[1])).toEqual(['/states/texas#residency', '/residency/pgy/4/texas']);
    expect(t).toContain('<link rel="canonical" href="https://physpay.example/residency/pgy/4/texas">');
  });
});
