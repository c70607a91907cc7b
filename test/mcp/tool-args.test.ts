/**
 * Arguments that used to give silent wrong answers: an amount that is not a year's pay (420 for $420k, an
 * hourly 150) is refused with a hint; optional arguments sent as null or "" are absent; a specialty compared
 * with itself is refused (its reports would count twice); the evaluations say the figures pool all experience
 * levels; unknown states and hospitals say what exists. Over the SDK (in memory) and the route's direct path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import type { LoadedBuild } from '../../server/builds/loaded-build.ts';
import { directCall } from '../../server/mcp/direct-call.ts';
import { OfferCheck } from '../../build/contract/offer-check.ts';
import { PayEvaluationOutput } from '../../server/mcp/schemas.ts';
import { ALL_EXPERIENCE_TEXT } from '../../build/contract/experience.ts';
import { annualPayIssue, MAX_ANNUAL_PAY, MIN_ANNUAL_PAY } from '../../build/contract/annual-pay.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { callTool, errorText, inMemoryClient, okResult } from './mcp-helpers.ts';

const DAY = '2026-12-01';
const work = useGoldenDir('mcp-args');
let build: LoadedBuild;
let client: Client;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const c = await inMemoryClient(work.dist, DAY, 'args');
  ({ build, client } = c);
  closers.push(c.close);
}, 60_000);

afterAll(async () => {
  for (const c of closers) await c();
});

describe('the one rule for a year\'s pay (annualPayIssue)', () => {
  it('takes $10,000 to $100,000,000; under it says why and reads a figure under 1,000 as thousands', () => {
    expect([MIN_ANNUAL_PAY, MAX_ANNUAL_PAY]).toEqual([10_000, 100_000_000]);
    for (const v of [10_000, 350_000, 100_000_000]) expect(annualPayIssue(v), String(v)).toBeNull();
    expect(annualPayIssue(420)).toBe('is under $10,000, too little for a year\'s total pay: give US dollars a year, not thousands or an hourly, daily or monthly rate; if you meant $420k, give 420000');
    expect(annualPayIssue(9_999.99)).toMatch(/^is under \$10,000, .*monthly rate$/);
    expect(annualPayIssue(0)).toMatch(/^is under \$10,000/);
    expect(annualPayIssue(100_000_000.01)).toMatch(/^is over \$100,000,000/);
  });
});

describe('amounts that are not a year\'s pay are refused, not ranked', () => {
  it('evaluate_compensation: 420 (for $420k) and an hourly 150 are tool errors with the hint; 10,000 is ranked', async () => {
    const k = errorText(await callTool(client, 'evaluate_compensation', { specialty: 'Cardiology', compensation: 420 }));
    expect(k).toBe(`compensation 420 ${annualPayIssue(420)}.`);
    expect(k).toContain('give 420000');
    const hourly = errorText(await callTool(client, 'evaluate_compensation', { specialty: 'Cardiology', compensation: 150, state: 'TX' }));
    expect(hourly).toMatch(/^compensation 150 is under \$10,000, too little for a year's total pay: .*hourly/);
    const { doc } = okResult(await callTool(client, 'evaluate_compensation', { specialty: 'Cardiology', compensation: 10_000 }));
    expect(doc).toMatchObject({ compensation: 10_000, band: 'below P10' });
  });

  it('evaluate_offer: a base salary of 420, or a total under $10,000, is a tool error naming the fields', async () => {
    expect(errorText(await callTool(client, 'evaluate_offer', { specialty: 'Cardiology', base_salary: 420 })))
      .toBe(`base_salary 420 ${annualPayIssue(420)}.`);
    expect(errorText(await callTool(client, 'evaluate_offer', { specialty: 'Cardiology', base_salary: 5_000, bonus: 2_000, call_pay: 500 })))
      .toMatch(/^base_salary \+ bonus \+ call_pay \(7500\) is under \$10,000/);
    // a small base with a productivity bonus is a year's pay
    const ok = OfferCheck.parse(okResult(await callTool(client, 'evaluate_offer', { specialty: 'Cardiology', base_salary: 5_000, bonus: 400_000, detail: 'full' })).doc);
    expect(ok.total_compensation).toBe(405_000);
  });
});

describe('optional arguments sent as null or "" are absent', () => {
  it('every tool answers as if they were left out', async () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['list_specialties', { release: null }, {}],
      ['get_specialty_pay', { specialty: 'Cardiology', state: null, release: '' }, { specialty: 'Cardiology' }],
      ['get_specialty_pay', { specialty: 'Cardiology', state: '' }, { specialty: 'Cardiology' }],
      ['get_specialty_pay', { specialty: 'Cardiology', state: '  ' }, { specialty: 'Cardiology' }],
      ['compare_specialties', { specialty_a: 'Cardiology', specialty_b: 'Pediatrics', state: null }, { specialty_a: 'Cardiology', specialty_b: 'Pediatrics' }],
      ['get_wrvu_rate', { specialty: 'Cardiology', release: null }, { specialty: 'Cardiology' }],
      ['get_resident_pay', { institution: null, state: 'TX' }, { state: 'TX' }],
      ['get_resident_pay', { institution: '', state: 'TX' }, { state: 'TX' }],
      ['evaluate_compensation', { specialty: 'Cardiology', compensation: 450_000, state: null }, { specialty: 'Cardiology', compensation: 450_000 }],
      [
        'evaluate_offer',
        { specialty: 'Cardiology', base_salary: 400_000, state: '', bonus: null, call_pay: '', hours_per_week: null, compensation_model: null, release: null },
        { specialty: 'Cardiology', base_salary: 400_000 },
      ],
    ];
    for (const [name, given, plain] of cases) {
      const a = await callTool(client, name, given);
      const b = await callTool(client, name, plain);
      expect(a.isError ?? false, `${name} ${JSON.stringify(given)}: ${JSON.stringify(a.content).slice(0, 300)}`).toBe(false);
      expect(a, `${name} ${JSON.stringify(given)}`).toEqual(b);
    }
  });

  it('the direct path takes them too (the same answer as without them)', () => {
    const deps = { build, day: DAY, limited: null };
    const route = { kind: 'legacy', reason: 'no-claim' } as never;
    const call = (args: Record<string, unknown>) => directCall(route, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_specialty_pay', arguments: args } }, deps, { paramHeaders: false });
    const withNull = call({ specialty: 'Cardiology', state: null, release: null });
    expect(withNull, 'served directly').not.toBeNull();
    expect(withNull).toEqual(call({ specialty: 'Cardiology' }));
  });

  it('a required argument sent as null is still refused; a null where no argument exists still names the accepted ones', async () => {
    expect(errorText(await callTool(client, 'get_specialty_pay', { specialty: null }))).toMatch(/specialty/);
    expect(errorText(await callTool(client, 'get_wrvu_rate', { specialty: 'Cardiology', state: null }))).toMatch(/get_wrvu_rate does not take "state"; it takes specialty, release/);
  });
});

describe('a specialty compared with itself', () => {
  it('is a tool error (also through an alias), not a comparison whose n counts the reports twice', async () => {
    for (const [a, b] of [['cardiology', 'Cardiology'], ['OB/GYN', 'obstetrics-gynecology']]) {
      const text = errorText(await callTool(client, 'compare_specialties', { specialty_a: a, specialty_b: b }));
      expect(text, `${a} / ${b}`).toMatch(/^specialty_a and specialty_b are both (Cardiology|Obstetrics).*: give two different specialties \(get_specialty_pay gives one specialty's own figures\)\.$/);
    }
    expect(errorText(await callTool(client, 'compare_specialties', { specialty_a: 'cardiology', specialty_b: 'cardiology', state: 'TX' }))).toMatch(/both Cardiology/);
  });

  it('the resource compare/{a}/{a}.json is refused too, and specialty_b does not complete to specialty_a', async () => {
    const uri = `${build.baseUrl}/data/api/v1/compare/cardiology/cardiology.json`;
    await expect(client.readResource({ uri })).rejects.toThrow(/A comparison needs two different specialties; both are Cardiology: read specialties\/cardiology\.json/);
    const ref = { type: 'ref/resource' as const, uri: `${build.baseUrl}/data/api/v1/compare/{specialty_a}/{specialty_b}.json` };
    const done = await client.complete({ ref, argument: { name: 'specialty_b', value: 'cardio' }, context: { arguments: { specialty_a: 'cardiology' } } });
    expect(done.completion.values).not.toContain('cardiology');
    const other = await client.complete({ ref, argument: { name: 'specialty_b', value: 'cardio' }, context: { arguments: { specialty_a: 'pediatrics' } } });
    expect(other.completion.values).toContain('cardiology');
  });
});

describe('years of experience', () => {
  it('evaluate_compensation says, in its text and its structured result, that the figures pool all experience levels', async () => {
    const r = await callTool(client, 'evaluate_compensation', { specialty: 'Cardiology', compensation: 450_000 });
    const { text, doc } = okResult(r);
    expect(PayEvaluationOutput.parse(doc).experience_levels).toBe('all');
    expect(text).toContain(ALL_EXPERIENCE_TEXT);
    const tools = (await client.listTools()).tools;
    expect(tools.find((t) => t.name === 'evaluate_compensation')!.description).toMatch(/pool all experience levels/);
    expect(tools.find((t) => t.name === 'evaluate_offer')!.description).toMatch(/all experience levels/);
  });

  it('evaluate_offer says so too', async () => {
    const { text, doc } = okResult(await callTool(client, 'evaluate_offer', { specialty: 'Cardiology', base_salary: 400_000 }));
    expect((doc as { experience_levels?: string }).experience_levels).toBe('all');
    expect(OfferCheck.parse(okResult(await callTool(client, 'evaluate_offer', { specialty: 'Cardiology', base_salary: 400_000, detail: 'full' })).doc).experience_levels).toBe('all');
    expect(text).toContain(ALL_EXPERIENCE_TEXT);
  });

  it('a years_experience argument is refused by name, never dropped silently', async () => {
    expect(errorText(await callTool(client, 'evaluate_compensation', { specialty: 'Cardiology', compensation: 450_000, years_experience: 12 })))
      .toMatch(/evaluate_compensation does not take "years_experience"; it takes specialty, compensation, state, release/);
  });
});

describe('unknown names say what exists', () => {
  it('a state: close matches, then the 50 states and DC and how to name them', async () => {
    const typo = errorText(await callTool(client, 'get_specialty_pay', { specialty: 'Cardiology', state: 'Texsa' }));
    expect(typo).toMatch(/^Unknown state "Texsa"\. Close matches: .*Texas \(texas\)\..* Figures are published for the 50 states and DC \(no territories\): give a two-letter code \("TX", "DC"\), a name \("Texas"\) or a slug \("new-york"\)\.$/);
    const territory = errorText(await callTool(client, 'get_resident_pay', { state: 'Guam' }));
    expect(territory).toContain('the 50 states and DC');
  });

  it('a teaching hospital: close matches, then where the list of them is', async () => {
    const text = errorText(await callTool(client, 'get_resident_pay', { institution: 'qqqq zzzz wwww' }));
    expect(text).toBe(`Unknown teaching hospital "qqqq zzzz wwww". get_resident_pay with a state ("TX") lists that state's teaching hospitals; ${build.baseUrl}/data/api/v1/residency/institutions.json lists them all.`);
  });

  it('a specialty: list_specialties', async () => {
    expect(errorText(await callTool(client, 'get_wrvu_rate', { specialty: 'qqqqqqqq' }))).toBe('Unknown specialty "qqqqqqqq". list_specialties lists every specialty with its slug.');
  });
});
