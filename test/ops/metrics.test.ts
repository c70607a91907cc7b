/**
 * GET /metrics of a real `physpay serve` process: Prometheus text whose request counters, latency
 * histogram and quota refusals move exactly by what was sent (open data, keyed API, tool server, 404s,
 * 429s), the served build's id and age, the swap counter after a new build is published, and, with
 * `--workers 2`, figures aggregated over both workers (every scrape shows the whole server, whichever
 * worker answers it).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnServe, type ServeProcess } from '../server/serve-process.ts';
import { waitFor } from '../helpers/http.ts';
import { FIXED_NOW, goldenBuild } from '../helpers/golden-build.ts';
import { generateKey } from '../../server/keyed/keys.ts';
import { addKey } from '../helpers/keys.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { awayFromMinuteEnd, fresh, logLines, mcpPost, requestLines, scrape, serveArgs, sum, useOpsFixture, type Sample } from './ops-helpers.ts';

const f = useOpsFixture('metrics');
const stopLater = closeAfterAll();
let serve: ServeProcess;
let cluster: ServeProcess | undefined;
let valid: string;
let spent: string;

beforeAll(async () => {
  valid = await addKey(f.serviceDb, 'professional');
  spent = await addKey(f.serviceDb, 'starter', { used: 100 });
  serve = stopLater(await spawnServe(serveArgs(f, '--trust-proxy', '1', '--ip-per-minute', '5', '--poll-ms', '100')));
}, 60_000);

const REQ = 'physpay_http_requests_total';
const DUR = 'physpay_http_request_duration_seconds';
const ifaces = ['open_data', 'keyed', 'mcp'] as const;

function delta(a: Sample[], b: Sample[], name: string, match: Record<string, string>): number {
  return sum(b, name, match) - sum(a, name, match);
}

describe('one process', () => {
  it('is Prometheus text with the documented metric families', async () => {
    const { r, samples } = await scrape(serve.url);
    expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(r.headers['cache-control']).toBe('no-store');
    for (const family of [REQ, DUR, 'physpay_quota_refusals_total', 'physpay_build_info', 'physpay_build_age_seconds', 'physpay_build_swaps_total', 'physpay_process_cpu_user_seconds_total']) {
      expect(r.text, family).toContain(`# TYPE ${family} `);
    }
    expect(r.text).toContain(`# TYPE ${DUR} histogram`);
    expect(samples.length).toBeGreaterThan(10);
  });

  it('counts by interface and status exactly what was sent; latency histogram; quota refusals', async () => {
    const { samples: before } = await scrape(serve.url);
    const xff = (i: number | string) => ({ 'x-forwarded-for': `10.0.0.${i}` });
    const sent: Record<string, Record<string, number>> = { open_data: {}, keyed: {}, mcp: {} };
    const note = (iface: string, status: number) => {
      sent[iface]![status] = (sent[iface]![status] ?? 0) + 1;
    };
    for (let i = 1; i <= 6; i++) note('open_data', (await fresh(serve.url, '/data/api/v1/specialties/cardiology.json', xff(i))).status);
    for (const p of ['/data/api/v1/specialties/nope.json', '/data/api/v1/nothing-here']) note('open_data', (await fresh(serve.url, p, xff(7))).status);
    await awayFromMinuteEnd();
    for (let i = 0; i < 7; i++) note('open_data', (await fresh(serve.url, '/data/api/v1/states.json', xff(99))).status);
    for (const p of ['/specialties', '/me/usage', '/benchmarks?specialty=Cardiology']) note('keyed', (await fresh(serve.url, `/api/v1${p}`, { 'x-api-key': valid })).status);
    note('keyed', (await fresh(serve.url, '/api/v1/specialties')).status);
    note('keyed', (await fresh(serve.url, '/api/v1/specialties', { 'x-api-key': generateKey() })).status);
    for (let i = 0; i < 2; i++) note('keyed', (await fresh(serve.url, '/api/v1/specialties', { 'x-api-key': spent })).status);
    for (let i = 0; i < 2; i++) note('mcp', (await mcpPost(serve.url, { jsonrpc: '2.0', id: i, method: 'tools/list' })).status);
    // a tool call from the IP that used up its minute: a tool error in a 200, counted as a refusal
    const refusedCall = await mcpPost(serve.url, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'list_specialties', arguments: {} } }, xff(99));
    expect(refusedCall.json<{ result: { isError: boolean; content: { text: string }[] } }>().result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/Rate limit exceeded/) }] });
    note('mcp', refusedCall.status);
    // a batch of three tool calls from the same IP: three refused calls, three refusals (not one per request)
    const batch = await mcpPost(serve.url, [1, 2, 3].map((i) => ({ jsonrpc: '2.0', id: 20 + i, method: 'tools/call', params: { name: 'list_specialties', arguments: {} } })), xff(99));
    note('mcp', batch.status);
    // a keyed tool call with a key whose quota is spent: a tool error in a 200, one key-quota refusal
    const spentCall = await mcpPost(serve.url, { jsonrpc: '2.0', id: 30, method: 'tools/call', params: { name: 'get_key_usage', arguments: {} } }, { ...xff(31), authorization: `Bearer ${spent}` });
    note('mcp', spentCall.status);
    const keyedCall = await mcpPost(serve.url, { jsonrpc: '2.0', id: 31, method: 'tools/call', params: { name: 'get_benchmark', arguments: { specialty: 'Cardiology' } } }, { ...xff(31), authorization: `Bearer ${spent}` });
    expect(keyedCall.json<{ result: { isError: boolean; content: { text: string }[] } }>().result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/quota of \d+ requests exceeded/) }] });
    note('mcp', keyedCall.status);
    expect(sent).toEqual({ open_data: { 200: 11, 404: 2, 429: 2 }, keyed: { 200: 3, 401: 2, 429: 2 }, mcp: { 200: 6 } });

    const after = await waitFor('the counters to show every request', async () => {
      const { samples } = await scrape(serve.url);
      return delta(before, samples, REQ, { interface: 'mcp' }) >= 6 && delta(before, samples, REQ, { interface: 'keyed' }) >= 7 ? samples : null;
    });
    for (const iface of ifaces) {
      const total = Object.values(sent[iface]!).reduce((a, b) => a + b, 0);
      expect(delta(before, after, REQ, { interface: iface }), iface).toBe(total);
      for (const [status, n] of Object.entries(sent[iface]!)) expect(delta(before, after, REQ, { interface: iface, status }), `${iface} ${status}`).toBe(n);
      // the histogram saw each of them once; its buckets are cumulative and end at the count
      expect(delta(before, after, `${DUR}_count`, { interface: iface }), `${iface} histogram count`).toBe(total);
      expect(delta(before, after, `${DUR}_sum`, { interface: iface })).toBeGreaterThan(0);
      const buckets = after.filter((s) => s.name === `${DUR}_bucket` && s.labels.interface === iface).sort((a, b) => Number(a.labels.le === '+Inf' ? Infinity : a.labels.le) - Number(b.labels.le === '+Inf' ? Infinity : b.labels.le));
      expect(buckets.length).toBeGreaterThan(5);
      for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
      expect(buckets.at(-1)!.labels.le).toBe('+Inf');
      expect(buckets.at(-1)!.value).toBe(sum(after, `${DUR}_count`, { interface: iface }));
    }
    expect(delta(before, after, 'physpay_quota_refusals_total', { interface: 'open_data' })).toBe(2);
    expect(delta(before, after, 'physpay_quota_refusals_total', { interface: 'keyed' })).toBe(2);
    expect(delta(before, after, 'physpay_quota_refusals_total', { interface: 'mcp' })).toBe(5); // one call, then a batch of three, then a keyed call over its key's quota (get_key_usage is not counted)
  });

  it('names the served build and its age; counts a swap when a new build is published', async () => {
    const { samples: s0 } = await scrape(serve.url);
    const info = s0.filter((s) => s.name === 'physpay_build_info');
    expect(info).toHaveLength(1);
    expect(info[0]!.labels.build_id).toBe(f.buildId);
    expect(info[0]!.labels.data_as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(info[0]!.value).toBe(1);
    const age = sum(s0, 'physpay_build_age_seconds');
    expect(Math.abs(age - (Date.now() - FIXED_NOW.getTime()) / 1000)).toBeLessThan(60);
    const swaps0 = sum(s0, 'physpay_build_swaps_total');
    expect(swaps0).toBe(0);

    const made = new Date(Date.now() - 3_600_000);
    const next = goldenBuild(f.db, f.dist, { buildDate: made.toISOString().slice(0, 10), now: () => made });
    expect(next.id).not.toBe(f.buildId);
    const s1 = await waitFor('the new build in build_info', async () => {
      const { samples } = await scrape(serve.url);
      return samples.find((s) => s.name === 'physpay_build_info')?.labels.build_id === next.id ? samples : null;
    }, 20_000);
    expect(s1.filter((s) => s.name === 'physpay_build_info')).toHaveLength(1);
    expect(sum(s1, 'physpay_build_swaps_total')).toBe(swaps0 + 1);
    expect(Math.abs(sum(s1, 'physpay_build_age_seconds') - 3600)).toBeLessThan(60);
    // the log is written asynchronously: the line can reach stderr after the scrape that saw the swap
    const swapped = await waitFor('the "build swapped" log line', () => {
      const l = logLines(serve.stderr()).filter((x) => x.msg === 'build swapped');
      return l.length > 0 ? l : null;
    }, 10_000);
    expect(swapped).toEqual([expect.objectContaining({ build_id: next.id, previous: f.buildId })]);
  }, 45_000);
});

describe('--workers 2', () => {
  it('aggregates the counters over both workers', async () => {
    cluster = stopLater(await spawnServe(serveArgs(f, '--workers', '2', '--trust-proxy', '1', '--ip-per-minute', '1000')));
    const { samples: before } = await scrape(cluster.url);
    // Batches of 40 fresh connections until both workers have answered some: the kernel hands each
    // connection to whichever worker accepts first (SCHED_NONE), so one batch may all go to one of them.
    let N = 0;
    let lines: ReturnType<typeof requestLines> = [];
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => fresh(cluster!.url, '/data/api/v1/specialties.json', { 'x-forwarded-for': `10.1.${batch}.${i}` })));
      expect(answers.map((a) => a.status)).toEqual(Array(40).fill(200));
      N += 40;
      lines = await waitFor('the log lines', () => {
        const l = requestLines(cluster!.stderr()).filter((x) => x.route === '/data/api/v1/specialties.json');
        return l.length >= N ? l : null;
      });
      if (new Set(lines.map((l) => l.pid)).size === 2) break;
    }
    // the requests were answered by two processes
    expect(new Set(lines.map((l) => l.pid)).size).toBe(2);
    expect(lines.every((l) => l.pid !== cluster!.child.pid)).toBe(true);
    // whichever worker answers the scrape, it shows all N
    for (let i = 0; i < 6; i++) {
      const { samples } = await scrape(cluster.url);
      expect(delta(before, samples, REQ, { interface: 'open_data', status: '200' }), `scrape ${i}`).toBe(N);
      expect(delta(before, samples, `${DUR}_count`, { interface: 'open_data' })).toBe(N);
      const info = samples.filter((s) => s.name === 'physpay_build_info');
      expect(info).toHaveLength(1);
      expect(sum(samples, 'physpay_build_info')).toBe(1);
    }
  }, 45_000);
});
