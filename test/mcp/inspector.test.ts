/**
 * The official MCP Inspector CLI (@modelcontextprotocol/inspector-cli, pinned in devDependencies: the
 * last release whose CLI runs on Node 20) against a real server on a loopback port over the golden build:
 * tools/list shows every tool with its schemas and read-only hint, one tools/call of each tool answers
 * the common fields at the top of structuredContent and the figures of the open feed at /data/api/v1/...,
 * an unknown tool is reported as an error, and --tool-arg values are typed as JSON; resources/list,
 * resources/templates/list, resources/read, prompts/list and prompts/get work over the same 2025 revision.
 *
 * One server for every call; the CLI runs (each a short-lived `node` child) are started together in
 * beforeAll, a few at a time, and each test awaits its own.
 *
 * The unknown-tool test matters because the SDK's McpServer alone answers an unknown tool with a result
 * flagged isError; physpay answers the JSON-RPC error the MCP specification prescribes.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LICENSE, LICENSE_URL } from '../../build/contract/open-feeds.ts';
import type {
  InstitutionFeed, InstitutionsFeed, SpecialtiesFeed, SpecialtyFeed, SpecialtyStateFeed, WrvuFeed,
} from '../../build/contract/open-feeds.ts';
import type { RunningServer } from '../../server/main.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { feed, serveGolden } from './mcp-helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'node_modules', '.bin', 'mcp-inspector-cli');
/**
 * inspector-cli 1.0.3 finds its own package.json with `fs.existsSync('../package.json')` relative to the
 * working directory but imports it relative to its module, so it fails ("Cannot find module
 * .../@modelcontextprotocol/package.json") unless the cwd's parent holds a package.json. Run it from its
 * own build/ folder, where both readings name the same file.
 */
const CLI_CWD = join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build');

const SEVEN_TOOLS = ['list_specialties', 'get_specialty_pay', 'compare_specialties', 'get_wrvu_rate', 'get_resident_pay', 'evaluate_compensation', 'evaluate_offer'];
const EXISTING_TOOLS = SEVEN_TOOLS.filter((t) => t !== 'evaluate_compensation' && t !== 'evaluate_offer');
const COMMON_FIELDS = ['n', 'as_of', 'citation_url', 'methodology_url', 'license', 'license_url', 'attribution'];
const DAY = '2026-12-01';

interface CliRun {
  args: string[];
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

interface ListedTool {
  name: string;
  inputSchema?: { type?: string; properties?: Record<string, { type?: string }> };
  outputSchema?: { type?: string; properties?: Record<string, unknown> };
  annotations?: { readOnlyHint?: boolean };
}

const work = useGoldenDir('mcp-inspector');
let server: RunningServer;
let mcpUrl: string;
const clock = () => new Date(`${DAY}T12:00:15.000Z`);

// A test awaits a run started in beforeAll, which may queue behind others: room for a few 30 s runs.
const RUN_WAIT_MS = 120_000;
// At most this many inspector processes at once (each is two `node` processes: launcher and CLI).
const MAX_PARALLEL = 4;
let running = 0;
const waiting: (() => void)[] = [];

/** Run the installed Inspector CLI in CLI mode against our server over Streamable HTTP. Never rejects. */
async function inspector(...args: string[]): Promise<CliRun> {
  if (running >= MAX_PARALLEL) await new Promise<void>((r) => waiting.push(r));
  running++;
  const argv = ['--cli', mcpUrl, '--transport', 'http', ...args];
  const t0 = performance.now();
  try {
    return await new Promise<CliRun>((resolve) => {
      const child = spawn(BIN, argv, { cwd: CLI_CWD, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => { stdout += c; });
      child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
      const timer = setTimeout(() => { stderr += '\n[test] inspector timed out after 30 s'; child.kill('SIGKILL'); }, 30_000);
      const done = (code: number | null) => { clearTimeout(timer); resolve({ args, code, stdout, stderr, ms: Math.round(performance.now() - t0) }); };
      child.on('error', (err) => { stderr += `\n[test] spawn failed: ${err.message}`; done(null); });
      child.on('close', done);
    });
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** The JSON the CLI printed on stdout (exit 0 expected). */
function jsonOf<T>(run: CliRun): T {
  const why = `inspector ${run.args.join(' ')} -> exit ${run.code}\nstderr: ${run.stderr.slice(0, 800)}\nstdout: ${run.stdout.slice(0, 400)}`;
  expect(run.code, why).toBe(0);
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON: ${why}`);
  }
}

/** A successful tool result printed by the CLI: no error flag, a text block, and its structuredContent. */
function okDoc<T = Record<string, unknown>>(run: CliRun): T {
  const r = jsonOf<ToolResult>(run);
  expect(r.isError ?? false, `${run.args.join(' ')}: ${JSON.stringify(r.content).slice(0, 400)}`).toBe(false);
  expect(r.content[0]?.type).toBe('text');
  expect(r.structuredContent, run.args.join(' ')).toBeTypeOf('object');
  return r.structuredContent as T;
}

/** The text of a tool error result printed by the CLI. */
function toolErrorText(run: CliRun): string {
  const r = jsonOf<ToolResult>(run);
  expect(r.isError, JSON.stringify(r).slice(0, 400)).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  return r.content.map((c) => c.text ?? '').join('\n');
}

/** The common fields of the spec, at the top level of a tool's structuredContent. */
function expectCommonFields(doc: Record<string, unknown>, label: string): void {
  for (const f of COMMON_FIELDS) expect(doc, `${label}: top-level ${f}`).toHaveProperty(f);
  expect(doc.n === null || (typeof doc.n === 'number' && Number.isInteger(doc.n) && doc.n >= 0), `${label}: n`).toBe(true);
  expect(doc.as_of, `${label}: as_of`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(doc.citation_url, `${label}: citation_url`).toMatch(/^https?:\/\/\S+$/);
  expect(doc.methodology_url, `${label}: methodology_url`).toMatch(/^https?:\/\/\S+$/);
  expect(doc.license, `${label}: license`).toBe('CC BY 4.0');
  expect(doc.license).toBe(LICENSE);
  expect(doc.license_url, `${label}: license_url`).toBe(LICENSE_URL);
  expect(doc.attribution, `${label}: attribution`).toBeTypeOf('string');
  expect(doc.attribution as string, `${label}: attribution`).toContain('CC BY 4.0');
  expect(doc.attribution as string, `${label}: attribution`).toContain(`accessed ${DAY})`);
}

// The open feeds the tools must match, fetched from the same server.
let specialtiesFeed: SpecialtiesFeed;
let cardiologyTx: SpecialtyStateFeed;
let cardiology: SpecialtyFeed;
let familyMedicine: SpecialtyFeed;
let wrvuCardiology: WrvuFeed;
let institutionsFeed: InstitutionsFeed;
let institutionFeed: InstitutionFeed;
let evaluateCompensation: number;

// The CLI runs, started together in beforeAll.
let runs: Record<
  'list' | 'listSpecialties' | 'specialtyPay' | 'compare' | 'wrvu' | 'residentInstitution' | 'residentState' | 'evaluate'
  | 'unknownTool' | 'typedNumber' | 'quotedString'
  | 'resources' | 'templates' | 'readResource' | 'prompts' | 'prompt',
  Promise<CliRun>
>;
let started: number;

beforeAll(async () => {
  expect(existsSync(BIN), `${BIN}: run npm ci (devDependency @modelcontextprotocol/inspector-cli)`).toBe(true);
  server = await serveGolden(work.path, work.dist, 'inspector', clock);
  mcpUrl = `${server.url}/mcp`;
  const url = server.url;
  [specialtiesFeed, cardiologyTx, cardiology, familyMedicine, wrvuCardiology, institutionsFeed] = await Promise.all([
    feed<SpecialtiesFeed>(url, '/specialties.json'),
    feed<SpecialtyStateFeed>(url, '/specialties/cardiology/states/texas.json'),
    feed<SpecialtyFeed>(url, '/specialties/cardiology.json'),
    feed<SpecialtyFeed>(url, '/specialties/family-medicine.json'),
    feed<WrvuFeed>(url, '/wrvu/cardiology.json'),
    feed<InstitutionsFeed>(url, '/residency/institutions.json'),
  ]);
  const texasHospital = institutionsFeed.institutions.find((i) => i.institution.state.slug === 'texas')!;
  institutionFeed = await feed<InstitutionFeed>(url, `/residency/institutions/${texasHospital.institution.slug}.json`);
  // A whole-dollar pay between the published P25 and median of national cardiology.
  expect(cardiology.p25).not.toBeNull();
  expect(cardiology.median).not.toBeNull();
  evaluateCompensation = Math.round((cardiology.p25! + cardiology.median!) / 2);

  started = performance.now();
  runs = {
    list: inspector('--method', 'tools/list'),
    listSpecialties: inspector('--method', 'tools/call', '--tool-name', 'list_specialties', '--tool-arg', 'limit=100'),
    specialtyPay: inspector('--method', 'tools/call', '--tool-name', 'get_specialty_pay', '--tool-arg', 'specialty=Cardiology', 'state=TX'),
    compare: inspector('--method', 'tools/call', '--tool-name', 'compare_specialties', '--tool-arg', 'specialty_a=Cardiology', 'specialty_b=Family Medicine', 'detail=full'),
    wrvu: inspector('--method', 'tools/call', '--tool-name', 'get_wrvu_rate', '--tool-arg', 'specialty=cardiology'),
    residentInstitution: inspector('--method', 'tools/call', '--tool-name', 'get_resident_pay', '--tool-arg', `institution=${texasHospital.institution.slug}`),
    residentState: inspector('--method', 'tools/call', '--tool-name', 'get_resident_pay', '--tool-arg', 'state=TX', 'limit=100'),
    // `compensation=NNN` reaches the server as a JSON number: the CLI JSON-parses every --tool-arg value.
    evaluate: inspector('--method', 'tools/call', '--tool-name', 'evaluate_compensation', '--tool-arg', 'specialty=Cardiology', `compensation=${evaluateCompensation}`),
    unknownTool: inspector('--method', 'tools/call', '--tool-name', 'no_such_tool', '--tool-arg', 'x=1'),
    typedNumber: inspector('--method', 'tools/call', '--tool-name', 'get_wrvu_rate', '--tool-arg', 'specialty=42'),
    quotedString: inspector('--method', 'tools/call', '--tool-name', 'get_wrvu_rate', '--tool-arg', 'specialty="42"'),
    resources: inspector('--method', 'resources/list'),
    templates: inspector('--method', 'resources/templates/list'),
    readResource: inspector('--method', 'resources/read', '--uri', cardiology.feed_url),
    prompts: inspector('--method', 'prompts/list'),
    prompt: inspector('--method', 'prompts/get', '--prompt-name', 'evaluate_job_offer', '--prompt-args', 'specialty=Cardiology', 'total_pay=$450,000', 'state=TX'),
  };
}, 60_000);

afterAll(async () => {
  if (runs) {
    const all = await Promise.all(Object.values(runs));
    const slowest = Math.max(...all.map((r) => r.ms));
    console.info(`inspector: ${all.length} CLI runs in ${Math.round(performance.now() - started)} ms (slowest ${slowest} ms)`);
  }
  await server?.close();
}, 60_000);

describe('Inspector CLI: tools/list', { timeout: RUN_WAIT_MS }, () => {
  it('lists the existing tools, each with an input schema, an output schema and readOnlyHint', async () => {
    const { tools } = jsonOf<{ tools: ListedTool[] }>(await runs.list);
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of EXISTING_TOOLS) {
      const t = byName.get(name);
      expect(t, `${name} listed`).toBeDefined();
      expect(t!.inputSchema?.type, name).toBe('object');
      expect(t!.outputSchema?.type, name).toBe('object');
      expect(t!.annotations?.readOnlyHint, name).toBe(true);
    }
  });

  it('lists exactly the seven tools, each with schemas and readOnlyHint', async () => {
    const { tools } = jsonOf<{ tools: ListedTool[] }>(await runs.list);
    expect(tools.map((t) => t.name).sort()).toEqual([...SEVEN_TOOLS].sort());
    for (const t of tools) {
      expect(t.inputSchema?.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    }
    const evaluate = tools.find((t) => t.name === 'evaluate_compensation')!;
    expect(Object.keys(evaluate.inputSchema?.properties ?? {}).sort()).toEqual(['compensation', 'release', 'specialty', 'state']);
    expect(evaluate.inputSchema?.properties?.compensation?.type).toBe('number');
  });
});

describe('Inspector CLI: one tools/call of each tool answers the open feed with the common fields on top', { timeout: RUN_WAIT_MS }, () => {
  it('list_specialties = /specialties.json', async () => {
    const doc = okDoc(await runs.listSpecialties);
    expectCommonFields(doc, 'list_specialties');
    expect(doc).toEqual(specialtiesFeed);
  });

  it('get_specialty_pay({specialty: "Cardiology", state: "TX"}) = /specialties/cardiology/states/texas.json', async () => {
    const doc = okDoc(await runs.specialtyPay);
    expectCommonFields(doc, 'get_specialty_pay');
    expect(doc).toEqual(cardiologyTx);
  });

  it('get_wrvu_rate({specialty: "cardiology"}) = /wrvu/cardiology.json', async () => {
    const doc = okDoc(await runs.wrvu);
    expectCommonFields(doc, 'get_wrvu_rate');
    expect(doc).toEqual(wrvuCardiology);
  });

  it('get_resident_pay({institution}) = /residency/institutions/{slug}.json', async () => {
    const doc = okDoc(await runs.residentInstitution);
    expectCommonFields(doc, 'get_resident_pay(institution)');
    expect(doc).toEqual(institutionFeed);
  });

  it('compare_specialties({Cardiology, Family Medicine}): both sides are the national feeds', async () => {
    const doc = okDoc<{ specialty_a: SpecialtyFeed; specialty_b: SpecialtyFeed; comparison: { median_difference: number | null } }>(await runs.compare);
    expect(doc.specialty_a).toEqual(cardiology);
    expect(doc.specialty_b).toEqual(familyMedicine);
    expect(doc.comparison.median_difference).toBe(cardiology.median! - familyMedicine.median!);
  });

  it('compare_specialties carries the common fields on top and = /compare/cardiology/family-medicine.json', async () => {
    const doc = okDoc(await runs.compare);
    expectCommonFields(doc, 'compare_specialties');
    expect(doc).toEqual(await feed(server.url, '/compare/cardiology/family-medicine.json'));
  });

  it('get_resident_pay({state: "TX"}): the Texas teaching hospitals of /residency/institutions.json, with their figures', async () => {
    const doc = okDoc<InstitutionsFeed>(await runs.residentState);
    const bySlug = (a: { institution: { slug: string } }, b: { institution: { slug: string } }) => a.institution.slug.localeCompare(b.institution.slug);
    const texas = institutionsFeed.institutions.filter((i) => i.institution.state.slug === 'texas').sort(bySlug);
    expect(texas.length).toBeGreaterThan(0);
    const got = [...doc.institutions].sort(bySlug);
    expect(got.map((i) => i.institution.slug)).toEqual(texas.map((i) => i.institution.slug));
    // each entry has the index entry's figures (a state document may add its own, e.g. the rank within the state)
    got.forEach((entry, i) => expect(entry).toMatchObject(texas[i]!));
  });

  it('get_resident_pay({state}) carries the common fields on top and = /residency/states/texas.json', async () => {
    const doc = okDoc(await runs.residentState);
    expectCommonFields(doc, 'get_resident_pay(state)');
    expect(doc).toEqual(await feed(server.url, '/residency/states/texas.json'));
  });

  it('a pay between P25 and the median of /specialties/cardiology.json is in band P25-P50', async () => {
    const doc = okDoc<{ percentile: number | null; band: string; n: number | null; as_of: string; compensation: unknown; percentiles: unknown }>(await runs.evaluate);
    expectCommonFields(doc, 'evaluate_compensation');
    expect(typeof doc.band).toBe('string');
    expect(doc.percentile === null || typeof doc.percentile === 'number').toBe(true);
    // The published figures the position is read from (the compensation lies strictly inside P25..P50).
    expect(doc.band).toBe('P25-P50');
    expect(doc.percentile).toBeGreaterThanOrEqual(25);
    expect(doc.percentile).toBeLessThanOrEqual(50);
    expect(doc.n).toBe(cardiology.n);
    expect(doc.as_of).toBe(cardiology.as_of);
    expect(doc.percentiles).toEqual({ p10: cardiology.p10, p25: cardiology.p25, median: cardiology.median, p75: cardiology.p75, p90: cardiology.p90 });
    // --tool-arg compensation=NNN arrived as a JSON number (the input schema takes a number; a string is refused)
    expect(doc.compensation).toBe(evaluateCompensation);
  });
});

describe('Inspector CLI: errors and argument typing', { timeout: RUN_WAIT_MS }, () => {
  it('reported as the JSON-RPC error -32602, not as a tool result', async () => {
    const run = await runs.unknownTool;
    // A JSON-RPC error makes the CLI print "Failed to call tool X: MCP error -32602: ..." on stderr and exit 1
    // with nothing on stdout. (The SDK's McpServer alone would answer a tool result flagged isError instead,
    // exit 0: that is what this guards against.)
    expect(run.code, `exit ${run.code}; stdout: ${run.stdout.slice(0, 300)}`).toBe(1);
    expect(run.stdout.trim()).toBe('');
    expect(run.stderr).toMatch(/Failed to call tool no_such_tool: MCP error -32602: /);
    expect(run.stderr).toMatch(/no_such_tool/);
    expect(run.stderr).toMatch(/unknown tool|not found/i);
  });

  it('--tool-arg values are JSON-parsed: specialty=42 is the number 42, specialty="42" the string "42"', async () => {
    // The number is refused by the input schema (a type error naming the argument) ...
    const typed = toolErrorText(await runs.typedNumber);
    expect(typed).toMatch(/specialty: Invalid input: expected string, received number/);
    // ... the quoted form reaches the lookup as a string and is an unknown specialty.
    expect(toolErrorText(await runs.quotedString)).toMatch(/^Unknown specialty "42"\./);
  });
});

describe('Inspector CLI: resources and prompts (2025 revision)', { timeout: RUN_WAIT_MS }, () => {
  it('lists resources and templates; reading a feed resource gives the bytes of the feed GET', async () => {
    const { resources } = jsonOf<{ resources: { uri: string; annotations?: { lastModified?: string } }[] }>(await runs.resources);
    expect(resources.map((r) => r.uri)).toContain(cardiology.feed_url);
    expect(resources.filter((r) => r.uri.startsWith('http')).every((r) => typeof r.annotations?.lastModified === 'string')).toBe(true);
    const { resourceTemplates } = jsonOf<{ resourceTemplates: { uriTemplate: string }[] }>(await runs.templates);
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain(cardiology.feed_url.replace('cardiology.json', '{specialty}.json'));
    const { contents } = jsonOf<{ contents: { uri: string; mimeType: string; text: string }[] }>(await runs.readResource);
    expect(contents).toHaveLength(1);
    expect(contents[0]!.mimeType).toBe('application/json');
    expect(JSON.parse(contents[0]!.text)).toEqual(cardiology);
  });

  it('lists the prompts; evaluate_job_offer names the tools with resolved arguments and the citation rules', async () => {
    const { prompts } = jsonOf<{ prompts: { name: string }[] }>(await runs.prompts);
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['evaluate_job_offer', 'compare_specialties']));
    const { messages } = jsonOf<{ messages: { role: string; content: { type: string; text: string } }[] }>(await runs.prompt);
    const text = messages.map((m) => m.content.text).join('\n');
    expect(text).toContain('evaluate_compensation');
    expect(text).toContain('"specialty":"cardiology"');
    expect(text).toContain('"compensation":450000');
    expect(text).toMatch(/self-reported/);
    expect(text).toMatch(/attribution/);
  });
});
