/**
 * Copy and ranking rules of the public pages, over a whole golden build: no "<Specialty> physicians",
 * withheld notices name specialties and states (not slugs or codes), lists sorted by the names they show,
 * resident pages call their figures published pay scales, counts in meta descriptions have thousands
 * separators, every distribution chart's axis starts at $0, sentences end with a full stop, ranked charts
 * show n, and /states says that its medians mix specialties.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { listFiles } from '../helpers/tree.ts';

const work = useTempDir('copy');
let pub: string;
const pages = new Map<string, string>();
const read = (p: string) => readFileSync(join(pub, p), 'utf8');
const json = <T>(p: string) => JSON.parse(read(p)) as T;
const text = (html: string) => html.replace(/<script>[\s\S]*?<\/script>|<style>[\s\S]*?<\/style>/g, '').replace(/<[^>]+>/g, '');
const rowNames = (html: string, caption: string) => {
  const t = html.split(`<caption>${caption}</caption>`)[1]!.split('</table>')[0]!;
  return [...t.matchAll(/<tr[^>]*><th scope="row"><a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1]!.replace(/&amp;/g, '&').replace(/&#39;/g, "'"));
};
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

beforeAll(() => {
  pub = join(goldenBuildIn(work.path).buildDir, 'public');
  for (const p of listFiles(pub)) if (p.endsWith('.html')) pages.set(p, read(p));
}, 120_000);

describe('copy rules over every page', () => {
  it('no "<Specialty> physicians" phrasing', () => {
    const names = json<{ specialties: { name: string }[] }>('data/api/v1/specialties.json').specialties.map((s) => s.name);
    const bad = [...pages].flatMap(([p, h]) => names.filter((n) => h.includes(`${n} physicians`) || h.includes(`${n} physician `)).map((n) => `${p}: ${n}`));
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it('withheld notices name specialties and states, never slugs or codes', () => {
    const sp = json<{ notice?: string; specialties: { slug: string; name: string; withheld: boolean }[] }>('data/api/v1/specialties.json');
    const withheld = sp.specialties.filter((s) => s.withheld);
    expect(withheld.length).toBeGreaterThan(0);
    for (const s of withheld) {
      expect(sp.notice).toContain(s.name);
      if (s.slug !== s.name.toLowerCase()) expect(sp.notice).not.toContain(s.slug);
    }
    const st = json<{ notice?: string; states: { state: { code: string; name: string }; withheld: boolean }[] }>('data/api/v1/states.json');
    for (const s of st.states.filter((x) => x.withheld)) {
      expect(st.notice).toContain(s.state.name);
      expect(st.notice).not.toMatch(new RegExp(`\\b${s.state.code}\\b`));
    }
  });

  it('/states and /salaries list rows by the name shown', () => {
    const states = rowNames(pages.get('states.html')!, 'Median physician total compensation by state');
    expect(states.length).toBe(51);
    expect(states).toEqual([...states].sort(byName));
    const sp = rowNames(pages.get('salaries.html')!, 'National total compensation by specialty');
    expect(sp.length).toBeGreaterThan(30);
    expect(sp).toEqual([...sp].sort(byName));
  });

  it('resident pages call their figures published pay scales, never self-reported data', () => {
    const resident = [...pages].filter(([p]) => p.startsWith('residency'));
    expect(resident.length).toBeGreaterThan(2);
    for (const [p, h] of resident) {
      expect(h, p).not.toContain('self-reported');
      expect(h, p).toContain('published pay scales');
    }
    // A state page's residency section says so too.
    const tx = pages.get('states/texas.html')!.split('id="residency"')[1]!;
    expect(tx).toContain('say the figures are published pay scales');
  });

  it('counts in meta descriptions have thousands separators', () => {
    const bad: string[] = [];
    for (const [p, h] of pages) {
      const d = h.match(/<meta name="description" content="([^"]*)"/)?.[1] ?? '';
      for (const m of d.matchAll(/(\d[\d,]*) self-reported reports/g)) if (!/^\d{1,3}(,\d{3})*$/.test(m[1]!)) bad.push(`${p}: ${m[1]}`);
    }
    expect(bad.slice(0, 5)).toEqual([]);
    const fm = json<{ n: number }>('data/api/v1/specialties/family-medicine.json');
    expect(pages.get('salaries/family-medicine.html')).toMatch(new RegExp(`content="[^"]*from ${fm.n.toLocaleString('en-US')} self-reported`));
  });

  it('every distribution chart\'s axis starts at $0', () => {
    let charts = 0;
    for (const [p, h] of pages) {
      for (const svg of h.match(/<svg[^>]*data-chart="(?:dist|wrvu-dist)"[\s\S]*?<\/svg>/g) ?? []) {
        charts++;
        const first = svg.match(/class="tick">([^<]*)</)?.[1];
        expect(first === '$0' || first === '$0.00', `${p}: axis starts at ${first}`).toBe(true);
      }
    }
    expect(charts).toBeGreaterThan(100);
  });

  it('sentences end with a full stop (the rank basis on hospital pages)', () => {
    const bad = [...pages].filter(([p]) => p.startsWith('residency/')).flatMap(([p, h]) => (/[a-z0-9] Cost of living:/.test(text(h)) ? [p] : []));
    expect(bad.slice(0, 3)).toEqual([]);
  });
});

describe('rankings', () => {
  it('every ranked chart shows n beside each name (resident scales aside) and ranks share ties', () => {
    for (const [p, h] of pages) {
      if (p.startsWith('residency')) continue;
      for (const svg of h.match(/<svg[^>]*data-chart="(?:ranked|top-states|top-specialties)"[\s\S]*?<\/svg>/g) ?? []) {
        const labels = [...svg.matchAll(/<text x="4" y="[\d.]+" class="label">([^<]*)</g)].map((m) => m[1]!);
        expect(labels.length, p).toBeGreaterThan(0);
        for (const l of labels) expect(l, p).toMatch(/^\d+\. .+ \(n=\d+\)$/);
      }
    }
  });

  it('/states says plainly that its medians mix specialties and links every specialty\'s states', () => {
    const h = pages.get('states.html')!;
    expect(text(h)).toContain('These medians mix specialties.');
    const n = json<{ count: number }>('data/api/v1/specialties.json').count;
    expect((h.match(/href="\/salaries\/[^"/]+#states-h"/g) ?? []).length).toBe(n);
  });
});
