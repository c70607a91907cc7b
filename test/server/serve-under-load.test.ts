/**
 * `physpay serve` started behind a busy edge loads its build while the traffic goes on. The load used to
 * read the build's files on the event loop, 16 at a time, each read a few loop turns (open, stat, read,
 * close): with a few hundred connections sending requests, every turn answered hundreds of 503s first, and
 * the build (5,482 files here) loaded only once the traffic stopped. The files are now read and checked in a
 * worker thread that hands the loop the whole build in one message.
 *
 * No timing is asserted: the traffic runs until the build is loaded or for a generous cap (30 times the
 * load time of an idle start, at least 20 s), and the test asserts the build was loaded while it ran.
 */
import net from 'node:net';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { waitFor } from '../helpers/http.ts';
import { spawnServe, type ServeProcess } from './serve-process.ts';

const golden = useGoldenDir('serve-under-load');
const later = closeAfterAll();
const FEED = '/data/api/v1/specialties/cardiology.json';
/** concurrent connections of the traffic (wrk's -c) */
const CONNECTIONS = 128;
/** requests each connection sends at once */
const PIPELINE = 16;

/** The `build loaded` log line's load_ms, once it is there (null before). */
function loadMs(serve: ServeProcess): number | null {
  const m = /"load_ms":(\d+)[^\n]*"msg":"build loaded"/.exec(serve.stderr());
  return m ? Number(m[1]) : null;
}

async function start(name: string): Promise<ServeProcess> {
  return later(await spawnServe(['--data', golden.dist, '--service-db', join(golden.path, `service-${name}.db`), '--host', '127.0.0.1', '--port', '0',
    '--ip-per-minute', '100000000', '--ip-per-day', '100000000'], 60_000, { until: 'listening' }));
}

/**
 * Keep CONNECTIONS connections busy until the first 200 (the build is loaded) or until `capMs` passes: each sends PIPELINE GETs of
 * a feed at once (HTTP/1.1 pipelining) and reads their answers before the next batch, so the test process
 * spends little per request and the server gets a flood like wrk's. Counts the answers by status.
 */
async function traffic(url: string, capMs: number): Promise<{ statuses: Map<number, number>; stoppedBy: 'ready' | 'cap'; ms: number }> {
  const u = new URL(url);
  const batch = `GET ${FEED} HTTP/1.1\r\nHost: ${u.host}\r\n\r\n`.repeat(PIPELINE);
  const statuses = new Map<number, number>();
  const deadline = Date.now() + capMs;
  const started = Date.now();
  let stoppedBy: 'ready' | 'cap' | null = null;
  const done = () => {
    if (stoppedBy) return true;
    if (statuses.has(200)) stoppedBy = 'ready';
    else if (Date.now() > deadline) stoppedBy = 'cap';
    return stoppedBy !== null;
  };
  const connection = () => new Promise<void>((resolve) => {
    const socket = net.connect(Number(u.port), u.hostname);
    let pending = 0;
    let tail = '';
    const send = () => {
      if (done()) {
        socket.destroy();
        resolve();
        return;
      }
      pending = PIPELINE;
      socket.write(batch);
    };
    socket.on('connect', send);
    socket.on('data', (chunk: Buffer) => {
      const text = tail + chunk.toString('latin1');
      let end = 0;
      for (const m of text.matchAll(/HTTP\/1\.1 (\d{3}) /g)) {
        const status = Number(m[1]);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        pending--;
        end = m.index + m[0].length;
      }
      // a status line split between two chunks is read with the next one
      tail = text.slice(Math.max(end, text.length - 16));
      if (pending <= 0) send();
    });
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
  });
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
  return { statuses, stoppedBy: stoppedBy ?? 'cap', ms: Date.now() - started };
}

it('loads its build while hundreds of connections keep sending requests', async () => {
  const idle = await start('idle');
  await idle.ready;
  // stdout's "listening on" and stderr's "build loaded" line are two pipes: either may be read first
  const idleMs = await waitFor('the "build loaded" log line', () => loadMs(idle), 10_000);
  expect(idleMs).toBeGreaterThan(0);
  await idle.stop();

  const busy = await start('busy');
  const capMs = Math.max(20_000, 30 * idleMs);
  const t = await traffic(busy.url, capMs);
  // the first answers were the "no build yet" 503s, then the build was loaded while the traffic still ran
  expect(t.statuses.get(503) ?? 0).toBeGreaterThan(0);
  expect(t.stoppedBy, `statuses ${JSON.stringify([...t.statuses])} in ${t.ms} ms, idle load ${idleMs} ms, cap ${capMs} ms`).toBe('ready');
  await busy.ready;
}, 180_000);
