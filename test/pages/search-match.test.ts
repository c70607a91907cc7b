/**
 * The site search's matcher (build/pages/search-match.ts) over an index made by the real searchIndex from
 * the reference specialties (their aliases, as the reports DB holds them) and states: every query of
 * issue 45, typos, specialty + state both ways, residency words, suggestions; the script every page ships
 * holds the same source the node copy is compiled from.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SPECIALTIES } from '../../build/db/reference/specialties.ts';
import { STATES } from '../../build/db/reference/states.ts';
import { slugify } from '../../build/contract/names.ts';
import type { InstitutionsFeed, SpecialtiesFeed, StatesFeed } from '../../build/contract/open-feeds.ts';
import { SEARCH_SCRIPT, searchIndex, searchIndexJson } from '../../build/pages/enhance.ts';
import { SEARCH_MATCH_JS, searchMatch } from '../../build/pages/search-match.ts';

const BASE = 'https://physpay.example';
const state = (code: string) => {
  const s = STATES.find((x) => x.code === code)!;
  return { code: s.code, name: s.name, slug: slugify(s.name) };
};
const sp = { specialties: SPECIALTIES.map((s) => ({ slug: s.slug, name: s.name, citation_url: `${BASE}/salaries/${s.slug}` })) } as unknown as SpecialtiesFeed;
const st = { states: STATES.map((s) => ({ state: state(s.code), citation_url: `${BASE}/states/${slugify(s.name)}` })) } as unknown as StatesFeed;
const hospital = (slug: string, name: string, city: string, code: string) => ({ institution: { slug, name, city, state: state(code) }, citation_url: `${BASE}/residency/${slug}` });
const inst = { institutions: [hospital('baylor-houston', 'Baylor College of Medicine', 'Houston', 'TX'), hospital('cleveland-clinic', 'Cleveland Clinic', 'Cleveland', 'OH')] } as unknown as InstitutionsFeed;
// Family medicine has a page for Ohio, cardiology for Texas and Ohio, dermatology for every state but New York
// (written as the states without one); nothing else is published per state.
const cells = new Map([['family-medicine', ['OH']], ['cardiology', ['TX', 'OH']], ['dermatology', STATES.map((s) => s.code).filter((c) => c !== 'NY')]]);
const entries = searchIndex(BASE, sp, st, inst, {
  specialtyAliases: new Map(SPECIALTIES.map((s) => [s.slug, s.aliases])), cells, residencyStates: new Set(['texas']), maxPgy: 5,
});
const index = JSON.parse(searchIndexJson(entries)) as string[][];
const find = (q: string) => searchMatch(index, q, 8);
const first = (q: string) => find(q).matches[0]?.[2];

describe('site search matcher', () => {
  it('finds the issue 45 queries', () => {
    expect(first('peds')).toBe('/salaries/pediatrics');
    expect(first('family medicine ohio')).toBe('/salaries/family-medicine/ohio');
    expect(find('family medicine ohio').matches[0]).toEqual(['Family Medicine in Ohio', 'Specialty in state', '/salaries/family-medicine/ohio']);
    // a level with a page of its own (up to PGY-5 here) goes to it; PGY-1 and levels past the last to /residency
    expect(first('PGY-2')).toBe('/residency/pgy/2');
    expect(first('pgy 3 salary')).toBe('/residency/pgy/3');
    expect(find('PGY-2').matches.map((m) => m[2])).toContain('/residency');
    expect(first('PGY-1')).toBe('/residency');
    expect(first('pgy6')).toBe('/residency');
    expect(first('PGY-4 Texas')).toBe('/residency/levels/texas');
    expect(first('texas pgy2')).toBe('/residency/levels/texas');
    expect(first('PGY-4 Ohio')).toBe('/residency'); // no teaching hospitals listed in Ohio here
    expect(first('resident')).toBe('/residency');
    expect(first('residency')).toBe('/residency');
    expect(first('Residents Texas')).toBe('/states/texas#residency');
    expect(find('residents texas').matches.map((m) => m[2])).toContain('/residency/baylor-houston');
  });

  it('pediatric cardiology (no such specialty): no match, Pediatrics and Cardiology suggested', () => {
    const r = find('pediatric cardiology');
    expect(r.matches).toEqual([]);
    expect(r.suggestions.map((s) => s[0]).slice(0, 2).sort()).toEqual(['Cardiology', 'Pediatrics']);
  });

  it('specialty + state in either order, by name or code', () => {
    for (const q of ['cardiology tx', 'texas cardiology', 'TX cardiology', 'cardiology in Texas', 'Cardiologist, Texas', 'cardio tx', 'cardiology salary texas']) expect(first(q), q).toBe('/salaries/cardiology/texas');
    expect(first('fm oh')).toBe('/salaries/family-medicine/ohio');
    expect(index.find((e) => e[0] === 'Dermatology')?.[5]).toBe('-ny');
    expect(first('derm tx')).toBe('/salaries/dermatology/texas');
    // no page for the pair: the specialty and the state, both
    expect(find('dermatology new york').matches.slice(0, 2).map((m) => m[2])).toEqual(['/salaries/dermatology', '/states/new-york']);
    expect(first('new york')).toBe('/states/new-york');
    expect(first('tx')).toBe('/states/texas');
  });

  it('abbreviations and synonyms the tool server resolves', () => {
    for (const s of SPECIALTIES) for (const a of s.aliases) expect(find(a).matches.map((m) => m[2]), a).toContain(`/salaries/${s.slug}`);
    expect(first('ob/gyn')).toBe('/salaries/obstetrics-gynecology');
    expect(first('ENT')).toBe('/salaries/otolaryngology');
    expect(first('heme-onc')).toBe('/salaries/hematology-oncology');
  });

  it('typos', () => {
    expect(first('cardiolgy')).toBe('/salaries/cardiology');
    expect(first('dermatolgy')).toBe('/salaries/dermatology');
    expect(first('pediatrcs')).toBe('/salaries/pediatrics');
    expect(first('Clevland clinic')).toBe('/residency/cleveland-clinic');
    expect(first('cardiolgy texas')).toBe('/salaries/cardiology/texas');
  });

  it('related words only suggest; nonsense gets nothing', () => {
    expect(find('kids')).toEqual({ matches: [], suggestions: [['Pediatrics', 'Specialty', '/salaries/pediatrics']] });
    expect(find('zzzz')).toEqual({ matches: [], suggestions: [] });
    expect(find('   ')).toEqual({ matches: [], suggestions: [] });
  });

  it('any query: at most `limit` matches, each a URL of the index or a specialty-in-state page, no duplicates', () => {
    const urls = new Set(index.map((e) => e[2]));
    fc.assert(fc.property(fc.string({ maxLength: 30 }), fc.integer({ min: 1, max: 8 }), (q, limit) => {
      const r = searchMatch(index, q, limit);
      expect(r.matches.length).toBeLessThanOrEqual(limit);
      expect(new Set(r.matches.map((m) => m[2])).size).toBe(r.matches.length);
      for (const [, , url] of [...r.matches, ...r.suggestions]) expect(urls.has(url) || /^\/salaries\/[a-z-]+\/[a-z-]+$|#residency$/.test(url)).toBe(true);
      if (r.matches.length) expect(r.suggestions).toEqual([]);
    }), { numRuns: 300 });
  });

  it('the browser runs the same source', () => {
    expect(SEARCH_SCRIPT).toContain(SEARCH_MATCH_JS);
  });
});
