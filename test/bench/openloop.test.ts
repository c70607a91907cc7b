/**
 * The keyed benchmark's load generator (scripts/loadgen/openloop.c, compiled by bench-lib's openLoop): it
 * sends exactly the scheduled number of requests, cycles through the request file in order, sends the key
 * header only when given, reads Content-Length and chunked answers, counts statuses, and counts a request
 * whose connection the server closed as an error. A measuring instrument gets tested like the code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { openLoop } from '../../scripts/bench-lib.ts';

// The server runs in its own process: openLoop blocks this one while the generator runs. It prints the
// port, then one line per request (path and key) on stdout.
const SERVER = `
const http = require('node:http');
const s = http.createServer((req, res) => {
  console.log(JSON.stringify({ path: req.url, key: req.headers['x-api-key'] }));
  if (req.url === '/chunked') {
    res.writeHead(200, { 'content-type': 'text/plain' }); // no length: chunked
    res.write('a'.repeat(5000));
    setImmediate(() => res.end('b'.repeat(70000)));
  } else if (req.url === '/missing') {
    res.writeHead(404, { 'content-length': 2 }).end('no');
  } else if (req.url === '/drop') {
    req.socket.destroy();
  } else {
    const body = Buffer.alloc(100000, 120); // larger than the generator's read buffer
    res.writeHead(200, { 'content-length': body.length }).end(body);
  }
});
s.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: s.address().port })));
`;

let child: ChildProcess;
let port: number;
let lines: string[] = [];

beforeAll(async () => {
  child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  let buf = '';
  port = await new Promise<number>((resolve) => {
    child.stdout!.on('data', (d) => {
      buf += d;
      const parts = buf.split('\n');
      buf = parts.pop()!;
      for (const p of parts) {
        const o = JSON.parse(p) as { port?: number };
        if (o.port) resolve(o.port);
        else lines.push(p);
      }
    });
  });
});

afterAll(() => {
  child?.kill();
});

/** The requests the server saw, once its output has caught up. */
async function seen(n: number): Promise<{ path: string; key?: string }[]> {
  for (let i = 0; i < 100 && lines.length < n; i++) await new Promise((r) => setTimeout(r, 20));
  const out = lines.map((l) => JSON.parse(l) as { path: string; key?: string });
  lines = [];
  return out;
}

describe('openloop load generator', () => {
  const MIX = [{ path: '/sized', key: 'k1' }, { path: '/chunked' }, { path: '/missing', key: 'k2' }];

  // One connection, so the order the server sees is the order the generator sent (across several
  // connections the server may read two sockets that became ready together in either order).
  it('sends the scheduled requests in file order and reads both framings', async () => {
    const r = openLoop(port, MIX, { rate: 300, seconds: 1, connections: 1 });
    expect(r).toMatchObject({ sent: 300, completed: 300, errors: 0, statuses: { 200: 200, 404: 100 } });
    const got = await seen(300);
    expect(got).toHaveLength(300);
    expect(got.slice(0, 6)).toEqual([
      { path: '/sized', key: 'k1' }, { path: '/chunked' }, { path: '/missing', key: 'k2' },
      { path: '/sized', key: 'k1' }, { path: '/chunked' }, { path: '/missing', key: 'k2' },
    ]);
    expect(r.p50).toBeGreaterThan(0);
    expect(r.p50).toBeLessThanOrEqual(r.p99);
    expect(r.p99).toBeLessThanOrEqual(r.max);
    expect(r.achieved).toBeGreaterThan(200);
  }, 30_000);

  it('spreads the schedule over several connections and sends each request exactly once', async () => {
    const r = openLoop(port, MIX, { rate: 300, seconds: 1, connections: 4 });
    expect(r).toMatchObject({ sent: 300, completed: 300, errors: 0, statuses: { 200: 200, 404: 100 } });
    const counts: Record<string, number> = {};
    for (const g of await seen(300)) counts[`${g.path} ${g.key ?? '-'}`] = (counts[`${g.path} ${g.key ?? '-'}`] ?? 0) + 1;
    expect(counts).toEqual({ '/sized k1': 100, '/chunked -': 100, '/missing k2': 100 });
  }, 30_000);

  it('counts a request whose connection the server closed as an error and carries on', async () => {
    const r = openLoop(port, [{ path: '/sized' }, { path: '/drop' }], { rate: 100, seconds: 1, connections: 2 });
    expect(r).toMatchObject({ sent: 100, completed: 50, errors: 50, statuses: { 200: 50 } });
    expect(await seen(100)).toHaveLength(100);
  }, 30_000);
});
