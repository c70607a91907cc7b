/**
 * Hardening II (issue 27): holes an attack pass found in the HTTP edges, each with the request that showed
 * it. (Page protections: test/pages/page-security.test.ts; PostgreSQL faults: test/faults/.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { API, call, qs, startKeyedServer, type KeyedServer } from '../keyed/harness.ts';
import { get } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { startTestServer } from '../helpers/server.ts';
import { redactSecrets } from '../../server/http/redact.ts';
import { connect } from 'node:net';

/** Send raw bytes on a new connection; resolve with what came back and when the server closed it. */
function raw(url: string, chunks: { data: string; afterMs?: number }[], waitMs: number): Promise<{ text: string; closedAfterMs: number | null }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let text = '';
    let closed: number | null = null;
    const timers: NodeJS.Timeout[] = [];
    socket.on('data', (d) => { text += d.toString('latin1'); });
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = Date.now() - started;
      timers.forEach(clearTimeout);
      resolve({ text, closedAfterMs: closed });
    });
    let at = 0;
    for (const c of chunks) {
      at += c.afterMs ?? 0;
      timers.push(setTimeout(() => { if (!socket.destroyed) socket.write(c.data); }, at));
    }
    timers.push(setTimeout(() => { socket.destroy(); resolve({ text, closedAfterMs: closed }); }, waitMs));
  });
}

const FAKE_KEY = `pcb_live_${'AbCd3fGh1jKlMn0pQrStUvWxYz012345'}`;
let k: KeyedServer;
let key: string;

beforeAll(async () => {
  k = await startKeyedServer({ now: '2026-11-20T10:00:00Z', prefix: 'hardening2' });
  key = (await createKey(k.server.store, 'enterprise')).key;
}, 120_000);
afterAll(() => k?.close());

describe('secrets are never echoed (item 6)', () => {
  it('redactSecrets removes key-shaped values and PostgreSQL passwords, and nothing else', () => {
    expect(redactSecrets(`unknown specialty "${FAKE_KEY}"`)).toBe('unknown specialty "pcb_live_[redacted]"');
    expect(redactSecrets('postgres://app:s3cr3t@db.internal:5432/physpay')).toBe('postgres://app:[redacted]@db.internal:5432/physpay');
    expect(redactSecrets('postgresql://db/physpay?user=app&password=hunter2&sslmode=require')).toBe('postgresql://db/physpay?user=app&password=[redacted]&sslmode=require');
    expect(redactSecrets('unknown specialty "cardiolgy"')).toBe('unknown specialty "cardiolgy"');
  });

  it('a key-shaped value passed as a parameter is not echoed in the keyed 400/404 body', async () => {
    for (const path of [
      `${API}/benchmarks?${qs({ specialty: FAKE_KEY })}`,
      `${API}/available-data?${qs({ specialty: 'Cardiology', state: FAKE_KEY })}`,
      `${API}/benchmarks?${qs({ specialty: 'Cardiology', practice_setting: FAKE_KEY })}`,
      `${API}/benchmarks?${qs({ specialty: 'Cardiology', [FAKE_KEY]: '1' })}`,
    ]) {
      const r = await call(k.url, path, key);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.text, path).not.toContain(FAKE_KEY.slice(9));
      expect(r.json<{ error: string }>().error).toMatch(/\S/);
    }
  });

  it('nor in the open data 404, nor in a tool error', async () => {
    const r = await get(k.url, `/data/api/v1/specialties/${FAKE_KEY}.json`);
    expect(r.status).toBe(404);
    expect(r.text).not.toContain(FAKE_KEY.slice(9));
    const mcp = await fetch(`${k.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_specialty_pay', arguments: { specialty: FAKE_KEY } } }),
    });
    const text = await mcp.text();
    expect(text).toMatch(/not found|unknown|no specialty/i);
    expect(text).not.toContain(FAKE_KEY.slice(9));
  });

  it('serve\'s start-up error names the store without its password (user-info or query string)', () => {
    const bin = join(import.meta.dirname, '../../bin/physpay.js');
    for (const target of ['postgres://physpay:userinfo-secret@127.0.0.1:1/physpay', 'postgres://127.0.0.1:1/physpay?user=physpay&password=query-secret']) {
      const r = spawnSync(process.execPath, [bin, 'serve', '--data', k.buildDir, '--service-db', target, '--port', '0'], { encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).not.toBe(0);
      expect(r.stderr).toMatch(/service store/);
      expect(r.stderr + r.stdout).not.toMatch(/userinfo-secret|query-secret/);
    }
  }, 120_000);
});

describe('the HTTP edges (items 8, 9)', () => {
  it('a request line over 16 KB is answered 431 in the documented error shape, not an empty body', async () => {
    const r = await raw(k.url, [{ data: `GET /data/api/v1/specialties.json?x=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n` }], 5_000);
    expect(r.text).toMatch(/^HTTP\/1\.1 431 /);
    const body = r.text.slice(r.text.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body).error).toMatch(/16 KB/);
    expect(r.text.toLowerCase()).toContain('content-type: application/json');
  });

  it('a client that drips its headers is cut off at the header timeout with a 408', async () => {
    const s = await startTestServer(join(k.work, 'dist-hardening2'), join(k.work, 'service-slow.db'), { ipLimits: { perMinute: 1_000, perDay: 10_000 }, headersTimeoutMs: 1_500 });
    try {
      const drip = Array.from({ length: 40 }, (_, i) => ({ data: `X-Slow-${i}: 1\r\n`, afterMs: 200 }));
      const r = await raw(s.url, [{ data: 'GET /data/api/v1/specialties.json HTTP/1.1\r\nHost: x\r\n' }, ...drip], 8_000);
      expect(r.closedAfterMs, 'the server closed the connection').not.toBeNull();
      expect(r.closedAfterMs!).toBeLessThan(4_000);
      expect(r.text).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await s.close();
    }
  }, 30_000);
});

describe('the edges of the contract (item 9)', () => {
  it('a keyed parameter holding a NUL or another control character is a 400 naming it; accents are folded (Téxas = Texas)', async () => {
    for (const [param, value] of [['specialty', 'Cardiology\u0000'], ['state', 'Texas\u001b[31m'], ['specialty', 'Cardiology\u202e'], ['practice_setting', 'Academic\u0085']] as const) {
      const r = await call(k.url, `${API}/benchmarks?${qs({ specialty: 'Cardiology', [param]: value })}`, key);
      expect(r.status, `${param}=${JSON.stringify(value)}`).toBe(400);
      expect(r.json<{ error: string }>().error).toMatch(new RegExp(`parameter ${param} contains the control character U\\+[0-9A-F]{4}`));
    }
    const accented = await call(k.url, `${API}/benchmarks?${qs({ specialty: 'Cardiology', state: 'Téxas' })}`, key);
    expect(accented.status).toBe(200);
    expect(accented.json<{ data: { geography: { state: string } } }>().data.geography.state).toBe('Texas');
  });

  it('an MCP argument named "__proto__" is refused (invalid params), not silently dropped', async () => {
    const r = await fetch(`${k.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_specialty_pay","arguments":{"specialty":"cardiology","__proto__":{"state":"TX"}}}}',
    });
    const body = await r.json() as { error?: { code: number; message: string }; id: number };
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toContain('__proto__');
    expect(body.id).toBe(7);
  });

  it('every spelling the router treats as one path is served as one (runs of slashes, letter case), counted, with a canonical Link', async () => {
    for (const path of ['//data/api/v1/specialties.json', '/DATA/API/V1/SPECIALTIES.JSON', '/data//api/v1/specialties/Cardiology.json', '/Data/Api/V1/states/TEXAS.json']) {
      const r = await get(k.url, path);
      expect(r.status, path).toBe(200);
      expect(r.headers.link, path).toMatch(/^<https:\/\/physpay\.example\/data\/api\/v1\/[a-z/]+\.json>; rel="canonical"$/);
      expect(r.headers.ratelimit, path).toMatch(/"minute";r=\d+/);
    }
  });
});

describe('an MCP batch across the per-IP limit (item 5)', () => {
  it('with R calls left, a batch of R + 1 serves the first R (and counts R); the last gets the limit error', async () => {
    const perMinute = 5;
    const s = await startTestServer(join(k.work, 'dist-hardening2'), join(k.work, 'service-batch.db'), { ipLimits: { perMinute, perDay: 1_000 } });
    try {
      const spent = await get(s.url, '/data/api/v1/specialties.json'); // one of the five spent on a feed
      expect(spent.status).toBe(200);
      const left = perMinute - 1;
      const batch = Array.from({ length: left + 1 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'get_wrvu_rate', arguments: { specialty: 'cardiology' } } }));
      const r = await fetch(`${s.url}/mcp`, {
        method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(batch),
      });
      const answers = (await r.json() as { id: number; result: { isError?: boolean; content: { text: string }[] } }[]).sort((a, b) => a.id - b.id);
      expect(answers).toHaveLength(left + 1);
      const served = answers.filter((a) => !a.result.isError);
      expect(served.map((a) => a.id)).toEqual(Array.from({ length: left }, (_, i) => i + 1));
      expect(answers[left]!.result.isError).toBe(true);
      expect(answers[left]!.result.content[0]!.text).toMatch(/Rate limit exceeded/);
      expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
      // the counter holds exactly the feed plus the R calls served: the next feed request is refused
      const next = await get(s.url, '/data/api/v1/specialties.json');
      expect(next.status).toBe(429);
    } finally {
      await s.close();
    }
  }, 30_000);
});

describe('one date for one set of figures (item 9)', () => {
  it('a keyed answer\'s data_as_of is the newest submission behind its headline scope (every year: never before the open feed\'s, which counts the headline years)', async () => {
    const spec = await call(k.url, `${API}/specialties`, key);
    const slugs = spec.json<{ specialties: { name: string; publishable: boolean }[] }>().specialties.filter((s) => s.publishable).map((s) => s.name);
    let differsFromDataset = 0;
    let compared = 0;
    const datasetWide = new Set<string>();
    for (const name of slugs.slice(0, 12)) {
      for (const state of [undefined, 'California', 'Texas']) {
        const r = await call(k.url, `${API}/benchmarks?${qs({ specialty: name, state })}`, key);
        if (r.status !== 200) continue;
        const d = r.json<{ data: { data_as_of: string; methodology: { data_date_range: { latest: string } }; geography: { scope_used: string } } }>().data;
        expect(d.data_as_of).toBe(d.methodology.data_date_range.latest);
        datasetWide.add(d.data_as_of);
      }
      const r = await call(k.url, `${API}/benchmarks?${qs({ specialty: name })}`, key);
      const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      const open = await get(k.url, `/data/api/v1/specialties/${slug}.json`);
      if (open.status === 200 && open.json<{ withheld: boolean }>().withheld === false) {
        // the keyed API counts every compensation year, the open headline its complete recent years: a subset
        expect(r.json<{ data: { data_as_of: string } }>().data.data_as_of >= open.json<{ as_of: string }>().as_of, name).toBe(true);
        compared++;
      }
    }
    differsFromDataset = datasetWide.size;
    expect(differsFromDataset).toBeGreaterThan(1); // not one date for the whole dataset
    expect(compared).toBeGreaterThan(6);
  });
});
