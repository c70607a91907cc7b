/**
 * JSON logs of a real `physpay serve` process: one line per request on stderr with req_id (= the
 * X-Request-Id header), interface, method, route (no query string), status and ms; no line ever holds an
 * API key (valid, unknown or malformed, in the header or in a query string); `--log-level warn` turns the
 * request lines off.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnServe, type ServeProcess } from '../server/serve-process.ts';
import { waitFor, type HttpResponse } from '../helpers/http.ts';
import { generateKey } from '../../server/keyed/keys.ts';
import { redactSecrets } from '../../server/http/redact.ts';
import { addKey } from '../helpers/keys.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { fresh, logLines, mcpPost, requestLines, serveArgs, useOpsFixture } from './ops-helpers.ts';

const f = useOpsFixture('logs');
const stopLater = closeAfterAll();
let serve: ServeProcess;
let quiet: ServeProcess | undefined;
let valid: string;
let suspended: string;

beforeAll(async () => {
  valid = await addKey(f.serviceDb, 'professional');
  suspended = await addKey(f.serviceDb, 'starter', { status: 'suspended' });
  serve = stopLater(await spawnServe(serveArgs(f)));
}, 60_000);

describe('server events', () => {
  it('the build load is logged with its id', async () => {
    // the log is written asynchronously, so the line may follow the "listening on" line on stdout
    const loaded = await waitFor('the "build loaded" log line', () => {
      const l = logLines(serve.stderr()).filter((x) => x.msg === 'build loaded');
      return l.length > 0 ? l : null;
    }, 10_000);
    expect(loaded).toHaveLength(1);
    expect(loaded[0]).toMatchObject({ build_id: f.buildId, previous: null, pid: serve.child.pid, level: 30 });
  });
});

describe('request lines', () => {
  it('one JSON line per request, matching the answer; never a key', async () => {
    const unknown = generateKey();
    const sent: { r: HttpResponse; method: string; route: string; iface: string }[] = [];
    const send = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
      const r = await fresh(serve.url, path, headers, method);
      const q = path.indexOf('?');
      sent.push({ r, method, route: q >= 0 ? path.slice(0, q) : path, iface: path.startsWith('/data/api/') ? 'open_data' : path.startsWith('/api/') ? 'keyed' : path.startsWith('/mcp') ? 'mcp' : 'other' });
      return r;
    };
    expect((await send('/data/api/v1/specialties/cardiology.json')).status).toBe(200);
    expect((await send(`/data/api/v1/states/texas.json?api_key=${valid}&x=1`)).status).toBe(200);
    expect((await send('/data/api/v1/specialties/cardiolgy.json')).status).toBe(404);
    expect((await send('/data/api/v1/states.json', {}, 'POST')).status).toBe(405);
    expect((await send('/api/v1/me/usage', { 'x-api-key': valid })).status).toBe(200);
    expect((await send('/api/v1/benchmarks?specialty=Cardiology&state=Texas', { 'x-api-key': valid })).status).toBe(200);
    expect((await send(`/api/v1/benchmarks?specialty=Cardiology&key=${valid}`, { 'x-api-key': unknown })).status).toBe(401);
    expect((await send('/api/v1/specialties', { 'x-api-key': `${valid}x` })).status).toBe(401);
    expect((await send('/api/v1/specialties', { 'x-api-key': suspended })).status).toBe(403);
    expect((await send(`/api/v1/specialties?api_key=${valid}`)).status).toBe(401);
    expect((await send('/healthz')).status).toBe(200);
    // key-shaped values in paths: the log's route holds them redacted, like the error body
    expect((await send(`/api/v1/${valid}`, { 'x-api-key': valid })).status).toBe(404);
    expect((await send(`/data/api/v1/specialties/${unknown}.json`)).status).toBe(404);
    const mcp = await mcpPost(serve.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(mcp.status).toBe(200);
    sent.push({ r: mcp, method: 'POST', route: '/mcp', iface: 'mcp' });
    // keys as bearer tokens on /mcp (a keyed tool call; an unknown key, 401)
    const keyedCall = await mcpPost(serve.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_benchmark', arguments: { specialty: 'Cardiology' } } }, { authorization: `Bearer ${valid}` });
    expect(keyedCall.status).toBe(200);
    sent.push({ r: keyedCall, method: 'POST', route: '/mcp', iface: 'mcp' });
    const badBearer = await mcpPost(serve.url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { authorization: `Bearer ${unknown}` });
    expect(badBearer.status).toBe(401);
    sent.push({ r: badBearer, method: 'POST', route: '/mcp', iface: 'mcp' });

    const lines = await waitFor('a log line for every request', () => {
      const l = requestLines(serve.stderr());
      return l.length >= sent.length ? l : null;
    });
    expect(lines).toHaveLength(sent.length);
    for (const s of sent) {
      const id = s.r.headers['x-request-id'];
      expect(id, s.route).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const mine = lines.filter((l) => l.req_id === id);
      expect(mine, `${s.method} ${s.route}`).toHaveLength(1);
      const l = mine[0]!;
      expect(l).toMatchObject({ interface: s.iface, method: s.method, route: redactSecrets(s.route), status: s.r.status, pid: serve.child.pid });
      expect(typeof l.ms).toBe('number');
      expect(l.ms).toBeGreaterThanOrEqual(0);
      expect(l.ms).toBeLessThan(10_000);
      expect(l.route).not.toContain('?');
      if (s.iface === 'keyed' && s.r.headers['content-type']?.startsWith('application/json') && s.r.status === 200) {
        expect(s.r.json<{ meta?: { request_id?: string } }>().meta?.request_id ?? id).toBe(id);
      }
    }
    // every line of stderr is JSON, and none holds a key (not even its 12-character prefix beyond pcb_live_)
    const all = serve.stderr();
    logLines(all);
    for (const k of [valid, unknown, suspended]) {
      expect(all).not.toContain(k);
      expect(all).not.toContain(k.slice(9, 25));
    }
  });
});

describe('--log-level warn', () => {
  it('suppresses the request lines', async () => {
    quiet = stopLater(await spawnServe(serveArgs(f, '--log-level', 'warn')));
    for (const path of ['/data/api/v1/specialties.json', '/api/v1/specialties', '/nope']) await fresh(quiet.url, path, { 'x-api-key': valid });
    await quiet.stop();
    expect(quiet.child.exitCode).toBe(0);
    const lines = logLines(quiet.stderr());
    expect(lines.filter((l) => l.msg === 'request')).toEqual([]);
    for (const l of lines) expect(l.level, JSON.stringify(l)).toBeGreaterThanOrEqual(40);
    expect(quiet.stderr()).not.toContain(valid);
  });
});
