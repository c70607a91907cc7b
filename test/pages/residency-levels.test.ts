/**
 * The PGY level pages (build/pages/residency-levels.ts), rendered from a hand-made residency/pgy/{n}.json:
 * every figure from the feed (data-field paths into it), the level menu as plain links (PGY-1 is
 * /residency), hospitals without the level said in words (not listed, never $0), a state's page of every level.
 */
import { describe, expect, it } from 'vitest';
import { InstitutionsFeed, ResidencyLevelFeed } from '../../build/contract/open-feeds.ts';
import { levelNav, renderResidencyLevelPage, renderResidencyLevelPages } from '../../build/pages/residency-levels.ts';
import type { SiteContext } from '../../build/pages/layout.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useGoldenDir } from '../helpers/golden-build.ts';

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
    expect(html).toContain('<a href="/residency/levels/new-york">New York</a> (1)');
    expect(html).toContain('<a href="/residency/levels/texas">Texas</a> (2)');
    expect(html).not.toMatch(/href="[^"]*\?/);
    expect(levelNav(site, 1, 1)).toBe(''); // no menu when every scale is one year long
  });

  it('a state\'s page shows its hospitals at every level, each figure from its own feed, "none" past a scale\'s end', () => {
    const listRow = (r: { institution: { slug: string }; academic_year: string; col_adjusted: number | null; cost_of_living_index: number | null; feed_url: string; citation_url: string } & Record<string, unknown>, levels: number) => ({
      institution: r.institution, academic_year: r.academic_year, pgy1_salary: 60_000, pgy1_col_adjusted: r.col_adjusted === null ? null : 63_158,
      rank: 1, rank_position: 1, rank_of: 3, cost_of_living_index: r.cost_of_living_index, levels, feed_url: r.feed_url, citation_url: r.citation_url,
    });
    const list = InstitutionsFeed.parse({
      ...Object.fromEntries(Object.entries(feed).filter(([k]) => !['pgy', 'max_pgy', 'count', 'without_level', 'rank_basis', 'institutions'].includes(k))),
      feed_url: `${base}/data/api/v1/residency/institutions.json`, citation_url: `${base}/residency`, count: 4,
      institutions: [listRow(feed.institutions[0]!, 4), listRow(feed.institutions[1]!, 4), listRow(feed.institutions[2]!, 4), listRow(row('d', tx, 1, 1, 1, 1), 2)],
    });
    const pages = renderResidencyLevelPages(site, list, [feed]);
    expect([...pages.keys()].sort()).toEqual(['/residency/levels/new-york', '/residency/levels/texas', '/residency/pgy/4']);
    const t = pages.get('/residency/levels/texas')!;
    expect(t).toContain('<h1>Resident salaries by PGY level in Texas</h1>');
    expect(t).toContain(`<article data-feed="${base}/data/api/v1/residency/institutions.json">`);
    // PGY-1 from institutions.json, PGY-4 from its own feed (the cell names it); New York's hospital is not here
    expect(t).toContain('data-field="institutions[0].pgy1_col_adjusted" data-value="63158"');
    expect(t).toContain(`<td class="num" data-feed="${base}/data/api/v1/residency/pgy/4.json"><span data-field="institutions[0].col_adjusted" data-value="73684">$73,684</span></td>`);
    expect(t).not.toContain('institutions[1].');
    expect(t).toContain('<td class="num na" data-value="">none</td>'); // d's scale ends at PGY-2
    expect(t).not.toContain('$0<');
    expect(t).toContain('<link rel="canonical" href="https://physpay.example/residency/levels/texas">');
    const nav = /<nav class="levels" aria-label="Postgraduate year">(.*?)<\/nav>/.exec(t)![1]!;
    expect([...nav.matchAll(/href="([^"]+)"/g)].map((m) => m[1])).toEqual(['/residency', '/residency/pgy/2', '/residency/pgy/3', '/residency/pgy/4']);
  });
});

describe('from the state page', () => {
  const golden = useGoldenDir('levels-link');

  it('a state\'s page links its hospitals\' every-level page, and the link resolves to a page of the build', () => {
    const pub = join(golden.buildDir, 'public');
    const state = readFileSync(join(pub, 'states/texas.html'), 'utf8');
    expect(state).toContain('<a href="/residency/levels/texas">Pay at every postgraduate year (PGY-1 and up) at these hospitals</a>');
    expect(existsSync(join(pub, 'residency/levels/texas.html'))).toBe(true);
    // every such link on every state page names a page the build has
    for (const f of readdirSync(join(pub, 'states'))) {
      const m = /href="(\/residency\/levels\/[a-z-]+)"/.exec(readFileSync(join(pub, 'states', f), 'utf8'));
      if (m) expect(existsSync(join(pub, `${m[1]}.html`)), f).toBe(true);
    }
  });
});
