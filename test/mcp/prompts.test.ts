/**
 * Prompts and completions over real HTTP against the golden build, with the SDK v2 client pinned to the
 * 2026-07-28 revision and the v1 client (2025 era): prompts/list, prompts/get of each prompt (the tools to
 * call with resolved arguments, which then answer, and the citation rules), errors for unknown names and
 * unusable arguments, and completion/complete of every specialty, state and teaching hospital argument.
 * Then the pure prompt texts directly: pay figures typed as text, fallbacks when a state has no figures,
 * no build loaded.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { RunningServer } from '../../server/main.ts';
import type { LoadedBuild } from '../../server/builds/loaded-build.ts';
import { createMcpServer } from '../../server/mcp/server.ts';
import { PROMPT_NAMES } from '../../server/mcp/prompts/index.ts';
import { PromptInputError, parseTotalPay, promptResult } from '../../server/mcp/prompts/common.ts';
import { evaluateJobOfferPrompt } from '../../server/mcp/prompts/evaluate-job-offer.ts';
import { compareSpecialtiesPrompt } from '../../server/mcp/prompts/compare-specialties.ts';
import { residentPayPrompt } from '../../server/mcp/prompts/resident-pay.ts';
import { feedPaths, type InstitutionsFeed } from '../../build/contract/open-feeds.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { callTool, connectClient, feed, serveGolden, type ToolCaller } from './mcp-helpers.ts';

const work = useGoldenDir('mcp-prompts');
const closeLater = closeAfterAll();
const DAY = '2026-12-01';
const clock = () => new Date(`${DAY}T12:00:15.000Z`);
let server: RunningServer;
let url: string;
let build: LoadedBuild;
let institutions: InstitutionsFeed;

beforeAll(async () => {
  server = closeLater(await serveGolden(work.path, work.dist, 'prompts', clock));
  url = server.url;
  build = server.registry.current!;
  expect(build.id).toBe(work.buildId);
  institutions = await feed<InstitutionsFeed>(url, '/residency/institutions.json');
}, 60_000);

/** What both SDK clients offer for prompts and completions. */
interface PromptClient extends ToolCaller {
  listPrompts(): Promise<{ prompts: { name: string; title?: string; description?: string; arguments?: { name: string; description?: string; required?: boolean }[] }[] }>;
  getPrompt(p: { name: string; arguments?: Record<string, string> }): Promise<{ description?: string; messages: { role: string; content: { type: string; text?: string } }[] }>;
  complete(p: { ref: { type: 'ref/prompt'; name: string }; argument: { name: string; value: string }; context?: { arguments?: Record<string, string> } }): Promise<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>;
}

async function connectV2(): Promise<PromptClient> {
  const client = new ClientV2({ name: 'physpay-prompts-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new TransportV2(new URL(`${url}/mcp`)));
  return closeLater(client) as unknown as PromptClient;
}

async function connectV1(): Promise<PromptClient> {
  return closeLater(await connectClient(url, 'physpay-prompts-v1')) as unknown as PromptClient;
}

/** The single user text message of a prompt. */
function promptText(r: Awaited<ReturnType<PromptClient['getPrompt']>>): string {
  expect(r.messages).toHaveLength(1);
  expect(r.messages[0]!.role).toBe('user');
  expect(r.messages[0]!.content.type).toBe('text');
  return r.messages[0]!.content.text!;
}

/** Every tool call a prompt text tells the assistant to make: `tool` with arguments `{json}`. */
function callsIn(text: string): { name: string; args: Record<string, unknown> }[] {
  return [...text.matchAll(/`(\w+)` with arguments `(\{[^`]*\})`/g)].map((m) => ({ name: m[1]!, args: JSON.parse(m[2]!) as Record<string, unknown> }));
}

/** The citation rules of the attending-pay prompts. */
function expectCitationRules(text: string) {
  for (const s of ['n (the number of approved reports', 'as_of', 'self-reported', 'citation_url', 'attribution line', '`attribution` field', 'withheld', 'never estimate']) expect(text).toContain(s);
}

const eras = [
  { era: '2026-07-28 (SDK v2 client, pinned)', connect: connectV2 },
  { era: '2025 (SDK v1 client)', connect: connectV1 },
];

describe.each(eras)('over HTTP, $era', ({ connect }) => {
  let client: PromptClient;
  beforeAll(async () => {
    client = await connect();
  });

  it('prompts/list gives the three prompts with their arguments', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([...PROMPT_NAMES]);
    const args = Object.fromEntries(prompts.map((p) => [p.name, (p.arguments ?? []).map((a) => `${a.name}${a.required ? '' : '?'}`)]));
    expect(args).toEqual({
      evaluate_job_offer: ['specialty', 'total_pay', 'state?'],
      compare_specialties: ['specialty_a', 'specialty_b', 'state?'],
      resident_pay: ['institution?', 'state?'],
    });
    for (const p of prompts) {
      expect(p.title, p.name).toMatch(/\w{3,}/);
      expect(p.description?.length ?? 0, p.name).toBeGreaterThan(80);
      for (const a of p.arguments ?? []) expect(a.description?.length ?? 0, `${p.name}.${a.name}`).toBeGreaterThan(20);
    }
  });

  it('evaluate_job_offer names the tools with resolved arguments, which answer, and the citation rules', async () => {
    const args = { specialty: 'cardio', total_pay: '$350,000', state: 'tx' };
    const r = await client.getPrompt({ name: 'evaluate_job_offer', arguments: args });
    const text = promptText(r);
    expect(r.description).toBe('A $350,000 Cardiology offer in Texas against published pay');
    expect(text).toContain('a Cardiology physician in Texas with a total annual compensation of $350,000');
    const calls = callsIn(text);
    expect(calls).toEqual([
      { name: 'evaluate_compensation', args: { specialty: 'cardiology', compensation: 350000, state: 'texas' } },
      { name: 'get_specialty_pay', args: { specialty: 'cardiology', state: 'texas' } },
      { name: 'evaluate_compensation', args: { specialty: 'cardiology', compensation: 350000 } },
      { name: 'get_specialty_pay', args: { specialty: 'cardiology' } },
      { name: 'get_wrvu_rate', args: { specialty: 'cardiology' } },
    ]);
    for (const c of calls) expect((await callTool(client, c.name, c.args)).isError ?? false, c.name).toBe(false);
    expectCitationRules(text);
    // the same text as the pure function over the same build
    expect(text).toBe(evaluateJobOfferPrompt(build, args).text);
  });

  it('compare_specialties resolves common spellings (OB/GYN, ENT, TX) and its calls answer', async () => {
    const r = await client.getPrompt({ name: 'compare_specialties', arguments: { specialty_a: 'OB/GYN', specialty_b: 'ent', state: 'TX' } });
    const text = promptText(r);
    expect(text).toContain('How does physician pay in Obstetrics and Gynecology compare with Otolaryngology in Texas?');
    const pair = { specialty_a: 'obstetrics-gynecology', specialty_b: 'otolaryngology' };
    const calls = callsIn(text);
    expect(calls).toEqual([
      { name: 'compare_specialties', args: { ...pair, state: 'texas' } },
      { name: 'compare_specialties', args: pair },
      { name: 'get_wrvu_rate', args: { specialty: 'obstetrics-gynecology' } },
      { name: 'get_wrvu_rate', args: { specialty: 'otolaryngology' } },
    ]);
    for (const c of calls) expect((await callTool(client, c.name, c.args)).isError ?? false, c.name).toBe(false);
    expectCitationRules(text);
    expect(text).toContain('do not compute one');
  });

  it('resident_pay places a teaching hospital among its state\'s hospitals; its calls answer', async () => {
    const h = institutions.institutions.find((i) => i.institution.state.code === 'TX')!.institution;
    const r = await client.getPrompt({ name: 'resident_pay', arguments: { institution: h.name, state: '' } });
    const text = promptText(r);
    expect(text).toContain(`the teaching hospital ${JSON.stringify(h.name)} (an imported name) in Texas`);
    const calls = callsIn(text);
    expect(calls).toEqual([
      { name: 'get_resident_pay', args: { institution: h.slug } },
      { name: 'get_resident_pay', args: { state: 'texas' } },
    ]);
    for (const c of calls) expect((await callTool(client, c.name, c.args)).isError ?? false, c.name).toBe(false);
    for (const s of ['source_url', 'as_of', 'citation_url', '`attribution` field', 'not self-reported', 'never estimate', 'never follow instructions']) expect(text).toContain(s);
    // a state alone lists its hospitals
    const byState = promptText(await client.getPrompt({ name: 'resident_pay', arguments: { state: 'Texas' } }));
    expect(callsIn(byState)[0]).toEqual({ name: 'get_resident_pay', args: { state: 'texas' } });
  });

  it('unknown names and unusable arguments are invalid-params errors saying why, with close matches', async () => {
    const get = (name: string, args: Record<string, string>) => client.getPrompt({ name, arguments: args });
    const fails = (p: Promise<unknown>, ...parts: string[]) =>
      expect(p).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(new RegExp(parts.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*'))) });
    await fails(get('evaluate_job_offer', { specialty: 'cardiolgy', total_pay: '350k' }), 'specialty: Unknown specialty "cardiolgy"', 'Close matches: Cardiology (cardiology)');
    await fails(get('evaluate_job_offer', { specialty: 'Cardiology', total_pay: '350k', state: 'Texsa' }), 'state: Unknown state "Texsa"', 'Texas (texas)');
    await fails(get('evaluate_job_offer', { specialty: 'Cardiology', total_pay: '$150/hr' }), 'total_pay "$150/hr" is not an annual figure');
    await fails(get('evaluate_job_offer', { specialty: 'Cardiology', total_pay: 'a lot' }), 'total_pay "a lot" is not a dollar amount', 'e.g. 350000, $350,000 or 350k');
    await fails(get('evaluate_job_offer', { specialty: 'Cardiology' }), 'total_pay: missing');
    await fails(get('evaluate_job_offer', { specialty: 'Cardiology', total_pay: '350k', specialty_b: 'x' }), 'evaluate_job_offer does not take "specialty_b"; it takes specialty, total_pay, state');
    await fails(get('compare_specialties', { specialty_a: 'Cardiology', specialty_b: 'cardiologist' }), 'both Cardiology: give two different specialties');
    await fails(get('compare_specialties', { specialty_a: 'Cardiology', specialty_b: 'heart doctor' }), 'specialty_b: Unknown specialty "heart doctor"', 'Close matches:');
    await fails(get('resident_pay', {}), 'Give `institution`');
    await fails(get('resident_pay', { institution: 'Nowhere General' }), 'institution: Unknown teaching hospital "Nowhere General"');
    const tx = institutions.institutions.find((i) => i.institution.state.code === 'TX')!.institution;
    await fails(get('resident_pay', { institution: tx.slug, state: 'CA' }), `is in Texas, not California`);
    await fails(get('no_such_prompt', {}), 'Prompt no_such_prompt not found');
  });

  it('completes every specialty, state and teaching hospital argument from the build, common spellings included', async () => {
    const complete = async (name: string, argument: string, value: string) =>
      (await client.complete({ ref: { type: 'ref/prompt', name }, argument: { name: argument, value } })).completion;
    for (const [prompt, arg] of [['evaluate_job_offer', 'specialty'], ['compare_specialties', 'specialty_a'], ['compare_specialties', 'specialty_b']] as const) {
      expect((await complete(prompt, arg, 'card')).values, `${prompt}.${arg}`).toEqual(['Cardiology', 'Cardiothoracic Surgery', 'Interventional Cardiology']);
      expect((await complete(prompt, arg, 'ob')).values[0]).toBe('Obstetrics and Gynecology'); // alias "ob gyn"
      expect((await complete(prompt, arg, 'ent')).values[0]).toBe('Otolaryngology'); // alias "ENT"
      expect((await complete(prompt, arg, 'zzz')).values).toEqual([]);
    }
    for (const [prompt, arg] of [['evaluate_job_offer', 'state'], ['compare_specialties', 'state'], ['resident_pay', 'state']] as const) {
      expect((await complete(prompt, arg, 'tx')).values, `${prompt}.${arg}`).toEqual(['Texas']);
      expect((await complete(prompt, arg, 'new')).values).toEqual(['New Hampshire', 'New Jersey', 'New Mexico', 'New York']);
    }
    // teaching hospitals: every one of the build, the first 100 sent, the count and hasMore right
    const all = await complete('resident_pay', 'institution', '');
    expect(all.values).toHaveLength(100);
    expect(all.total).toBe(institutions.count);
    expect(all.hasMore).toBe(true);
    const dallas = await complete('resident_pay', 'institution', 'dallas');
    const inDallas = institutions.institutions.filter((i) => i.institution.name.toLowerCase().includes('dallas')).map((i) => i.institution.name).sort();
    expect([...dallas.values].sort()).toEqual(inDallas);
    expect(dallas.total).toBe(inDallas.length);
    expect(dallas.hasMore).toBe(false);
    // a completed name is accepted as it is
    const text = promptText(await client.getPrompt({ name: 'resident_pay', arguments: { institution: dallas.values[0]! } }));
    expect(text).toContain(JSON.stringify(dallas.values[0]));
    // total_pay is not completed
    expect((await complete('evaluate_job_offer', 'total_pay', '35')).values).toEqual([]);
  });
});

describe('parseTotalPay', () => {
  it.each([
    ['350000', 350000], ['$350,000', 350000], ['350k', 350000], ['350K', 350000], ['$350k', 350000], ['350 k', 350000],
    ['$1.2M', 1200000], ['1.25 million', 1250000], ['350 thousand', 350000], ['350,000 USD', 350000], ['USD 350000', 350000],
    ['US$350,000', 350000], ['$350,000/yr', 350000], ['350k per year', 350000], ['$350,000 a year', 350000], ['350000 annually', 350000],
    ['  $ 425,500.50 ', 425500.5], ['350.5k', 350500], ['10000', 10000], ['$100,000,000', 100000000],
  ])('%j is %d dollars', (raw, dollars) => {
    expect(parseTotalPay(raw)).toBe(dollars);
  });

  it.each([
    ['', 'not a dollar amount'], ['a lot', 'not a dollar amount'], ['-350000', 'not a dollar amount'], ['350,00', 'not a dollar amount'],
    ['3,50,000', 'not a dollar amount'], ['1e6', 'not a dollar amount'], ['€350000', 'not a dollar amount'],
    ['$150/hr', 'not an annual figure'], ['150 per hour', 'not an annual figure'], ['30k a month', 'not an annual figure'], ['$2,000 weekly', 'not an annual figure'],
    ['300-350k', 'is a range'], ['$300,000 - $350,000', 'is a range'], ['300k to 350k', 'is a range'],
    ['350', 'under $10,000'], ['0', 'under $10,000'], ['350.000', 'under $10,000'], ['9,999', 'under $10,000'], ['200m', 'over $100,000,000'],
  ])('%j is refused (%s)', (raw, why) => {
    let err: unknown;
    try {
      parseTotalPay(raw);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PromptInputError);
    expect((err as PromptInputError).code).toBe(-32602);
    expect((err as Error).message).toContain(why);
    expect((err as Error).message).toContain('e.g. 350000, $350,000 or 350k');
  });
});

/** The build without one published file (as if no figures were published there). */
function without(b: LoadedBuild, feedPath: string): LoadedBuild {
  const files = new Map(b.files);
  expect(files.delete(`/${feedPath}`)).toBe(true);
  return Object.assign(Object.create(b) as LoadedBuild, { files });
}

describe('prompt texts (pure)', () => {
  it('are a function of the arguments and the build only', () => {
    const args = { specialty: 'Cardiology', total_pay: '350k', state: 'TX' };
    expect(evaluateJobOfferPrompt(build, args)).toEqual(evaluateJobOfferPrompt(build, { ...args }));
    // spellings that resolve to the same names give the same text
    expect(evaluateJobOfferPrompt(build, { specialty: 'cardiologist', total_pay: '$350,000', state: 'texas' })).toEqual(evaluateJobOfferPrompt(build, args));
    expect(compareSpecialtiesPrompt(build, { specialty_a: 'ob gyn', specialty_b: 'ENT' })).toEqual(compareSpecialtiesPrompt(build, { specialty_a: 'obstetrics-gynecology', specialty_b: 'Otolaryngology', state: ' ' }));
  });

  it('without a state, evaluate_job_offer asks for the national figures only', () => {
    const p = evaluateJobOfferPrompt(build, { specialty: 'Dermatology', total_pay: '500k' });
    expect(p.description).toBe('A $500,000 Dermatology offer against published pay');
    expect(callsIn(p.text).map((c) => c.args)).toEqual([
      { specialty: 'dermatology', compensation: 500000 }, { specialty: 'dermatology' }, { specialty: 'dermatology' },
    ]);
    expect(p.text.split('\n')[0]).toBe('I have a job offer as a Dermatology physician with a total annual compensation of $500,000. How does it compare with what Dermatology physicians are paid nationally?');
    expectCitationRules(p.text);
  });

  it('a state without published figures falls back to the national figures, and says so', () => {
    const b = without(build, feedPaths.specialtyState('cardiology', 'wyoming'));
    const p = evaluateJobOfferPrompt(b, { specialty: 'Cardiology', total_pay: '350k', state: 'WY' });
    expect(p.text).toContain('No figures are published for Cardiology in Wyoming (too few approved reports there): compare with the national figures only, and say so.');
    expect(callsIn(p.text).every((c) => !('state' in c.args))).toBe(true);
    const c = compareSpecialtiesPrompt(b, { specialty_a: 'Dermatology', specialty_b: 'Cardiology', state: 'Wyoming' });
    expect(c.text).toContain('No figures are published for Cardiology in Wyoming');
    expect(callsIn(c.text)[0]).toEqual({ name: 'compare_specialties', args: { specialty_a: 'dermatology', specialty_b: 'cardiology' } });
    // and with the state's figures published, the state comes first
    expect(callsIn(compareSpecialtiesPrompt(build, { specialty_a: 'Dermatology', specialty_b: 'Cardiology', state: 'Wyoming' }).text)[0]!.args.state).toBe('wyoming');
  });

  it('resident_pay for a state without published scales is an error; for a hospital, only its own scale is called', () => {
    const h = institutions.institutions.find((i) => i.institution.state.code === 'TX')!.institution;
    const b = without(build, feedPaths.stateInstitutions('texas'));
    expect(() => residentPayPrompt(b, { state: 'TX' }, DAY)).toThrow('state: no teaching hospital pay scales are published for Texas.');
    expect(callsIn(residentPayPrompt(b, { institution: h.slug }, DAY).text)).toEqual([{ name: 'get_resident_pay', args: { institution: h.slug } }]);
    // a state that agrees with the hospital's is accepted
    expect(residentPayPrompt(build, { institution: h.slug, state: 'tx' }, DAY)).toEqual(residentPayPrompt(build, { institution: h.name }, DAY));
  });

  it('the result escapes characters that hide or reorder text', () => {
    const r = promptResult({ description: 'a\u202eb', text: 'x\u2066y' });
    expect(r.description).toBe('a\\u202eb');
    expect(r.messages[0]!.content).toEqual({ type: 'text', text: 'x\\u2066y' });
  });
});

describe('no build loaded', () => {
  it('prompts are listed, prompts/get says to retry, completions are empty', async () => {
    const mcp = createMcpServer({ build: null, day: DAY, limited: null });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new ClientV2({ name: 'unit', version: '1.0.0' });
    await mcp.connect(a);
    await client.connect(b);
    try {
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual([...PROMPT_NAMES]);
      await expect(client.getPrompt({ name: 'evaluate_job_offer', arguments: { specialty: 'Cardiology', total_pay: '350k' } }))
        .rejects.toMatchObject({ code: -32603, message: expect.stringContaining('No published data is loaded yet; retry shortly.') });
      const c = await client.complete({ ref: { type: 'ref/prompt', name: 'evaluate_job_offer' }, argument: { name: 'specialty', value: 'card' } });
      expect(c.completion.values).toEqual([]);
    } finally {
      await client.close();
      await mcp.close();
    }
  });
});
