/**
 * `physpay serve` start-up (issue 28, item 6): the port is bound first, then the build is loaded. A taken
 * port is reported at once (exit 1, the `cannot listen on` sentence) without loading the build; while the
 * build loads, the server answers: /healthz 200, /readyz 503 naming the build, every data route 503 with
 * Retry-After in its interface's error shape; once it is loaded, 200.
 *
 * A build that takes as long to load as the test wants: its first public file (in manifest order, so the
 * first file a load reads) is replaced by a named pipe (mkfifo), so reading it waits until the test writes
 * the file's bytes into the pipe. Before this change, serve loaded the build before listening, so on a
 * taken port it never got to say so. A load that read files synchronously stalled the whole server on
 * that pipe: a slow or stuck file must hold one read, not every answer.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { get, request, waitFor } from '../helpers/http.ts';
import { addKey } from '../helpers/keys.ts';
import { BIN, spawnServe } from './serve-process.ts';

const golden = useGoldenDir('serve-start');
const later = closeAfterAll();
const FEED = '/data/api/v1/specialties/cardiology.json';
/** the bytes of the file the pipe replaced */
let feedBytes: Buffer;
let fifo: string;

beforeAll(() => {
  const manifest = JSON.parse(readFileSync(join(golden.buildDir, 'manifest.json'), 'utf8')) as { files: Record<string, unknown> };
  fifo = join(golden.buildDir, Object.keys(manifest.files).find((p) => p.startsWith('public/'))!);
  feedBytes = readFileSync(fifo);
  rmSync(fifo);
  const r = spawnSync('mkfifo', [fifo]);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
});

/** The JSON log lines of a serve process's stderr (other lines skipped). */
const logLines = (stderr: string) =>
  stderr.split('\n').flatMap((l) => {
    try {
      return [JSON.parse(l) as Record<string, unknown>];
    } catch {
      return [];
    }
  });

/** `physpay serve ...args` to its end (killed after `timeoutMs`): exit code, stderr, wall time. */
function serveToExit(args: string[], timeoutMs: number): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, ms: Date.now() - started });
    });
  });
}

describe('a taken port', () => {
  let holder: Server;
  let port: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
    port = (holder.address() as { port: number }).port;
  });
  afterAll(() => {
    holder.close();
  });

  it.each([[[]], [['--workers', '2']]])('is reported at once, before the build is loaded (%j)', async (extra) => {
    const r = await serveToExit(['--data', golden.dist, '--service-db', join(golden.path, 'service-taken.db'), '--host', '127.0.0.1', '--port', String(port), ...extra], 20_000);
    expect(r.stderr).toContain(`physpay: cannot listen on 127.0.0.1:${port} (--host, --port): EADDRINUSE`);
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(10_000); // the build can never load here: the sentence came without it
    expect(logLines(r.stderr).filter((l) => l.msg === 'build loaded')).toEqual([]);
  }, 30_000);
});

describe('while the build loads', () => {
  it('answers at once: /healthz 200, /readyz 503 naming the build, data routes 503 with Retry-After; 200 once loaded', async () => {
    const serviceDb = join(golden.path, 'service.db');
    const key = await addKey(serviceDb, 'professional');
    const serve = later(await spawnServe(['--data', golden.dist, '--service-db', serviceDb, '--host', '127.0.0.1', '--port', '0'], 30_000, { until: 'listening' }));
    let ready = false;
    void serve.ready.then(() => (ready = true));

    expect((await get(serve.url, '/healthz')).status).toBe(200);
    const readyz = await get(serve.url, '/readyz');
    expect(readyz.status).toBe(503);
    expect(readyz.headers['retry-after']).toBe('5');
    expect(readyz.json()).toEqual({ status: 'not ready', error: `loading build ${golden.buildId}`, loading: golden.buildId });
    // each interface's "no build yet" answer: {"error"} with Retry-After
    for (const [path, headers] of [[FEED, {}], ['/api/v1/benchmarks?specialty=cardiology', { 'x-api-key': key }], ['/salaries/cardiology', { accept: 'application/json' }], ['/.well-known/mcp.json', {}]] as [string, Record<string, string>][]) {
      const r = await get(serve.url, path, headers);
      expect(r.status, path).toBe(503);
      expect(r.headers['retry-after'], path).toBe('5');
      expect(r.json().error, path).toEqual(expect.any(String));
    }
    expect(ready).toBe(false); // stdout's `listening on` waits for the build

    await writeFile(fifo, feedBytes); // the build's missing file: the load goes on
    await serve.ready;
    const after = await get(serve.url, '/readyz');
    expect(after.status).toBe(200);
    expect(after.json()).toMatchObject({ status: 'ready', build_id: golden.buildId });
    const feed = await get(serve.url, FEED);
    expect(feed.status).toBe(200);
    expect((await request(serve.url, '/api/v1/benchmarks?specialty=cardiology', { headers: { 'x-api-key': key } })).status).toBe(200);

    // the log: `listening` first, then `build loaded`, each with its time
    const lines = await waitFor('the "build loaded" log line', () => {
      const l = logLines(serve.stderr()).filter((x) => x.msg === 'listening' || x.msg === 'build loaded');
      return l.length === 2 ? l : null;
    }, 10_000);
    expect(lines.map((l) => l.msg)).toEqual(['listening', 'build loaded']);
    expect(lines[0]).toMatchObject({ url: serve.url, since_start_ms: expect.any(Number), data: golden.dist, service_db: serviceDb }); // where its data and its service DB are
    expect(lines[1]).toMatchObject({ build_id: golden.buildId, previous: null, load_ms: expect.any(Number), since_start_ms: expect.any(Number) });
    expect(lines[1]!.since_start_ms as number).toBeGreaterThanOrEqual(lines[0]!.since_start_ms as number);
  }, 60_000);
});

describe('signals while starting (issue 40, item 10)', () => {
  /** Spawn serve until its `listening` log line, send `signal` once `when` says so; how it ended. */
  async function signalWhileStarting(extra: string[], when: (url: string) => Promise<void>): Promise<{ code: number | null; signal: string | null; ms: number; stderr: string; loaded: boolean }> {
    const serve = later(await spawnServe(['--data', golden.dist, '--service-db', join(golden.path, `service-signal-${extra.length}.db`), '--host', '127.0.0.1', '--port', '0', ...extra], 30_000, { until: 'listening' }));
    const exited = new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) => serve.child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));
    await when(serve.url);
    const sent = Date.now();
    serve.child.kill('SIGTERM');
    const exit = await exited;
    return { code: exit.code, signal: exit.signal, ms: exit.at - sent, stderr: serve.stderr(), loaded: logLines(serve.stderr()).some((l) => l.msg === 'build loaded') };
  }

  it.each([[[]], [['--workers', '2']]])('a SIGTERM right after the port is bound, while the server\'s code still loads, stops it gracefully: exit 0 (%j)', async (extra) => {
    const r = await signalWhileStarting(extra, async () => {});
    expect([r.code, r.signal], r.stderr.slice(-1500)).toEqual([0, null]);
    expect(r.stderr).toMatch(/SIGTERM: (shutting down gracefully|stopping 2 workers gracefully|stopped before listening)/);
    expect(r.loaded).toBe(false); // it did not wait for the build
    expect(r.ms).toBeLessThan(10_000);
  }, 40_000);

  it('--workers 2: a SIGTERM just after the workers are forked (their code still loading) stops them all: exit 0', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--data', golden.dist, '--service-db', join(golden.path, 'service-forked.db'), '--host', '127.0.0.1', '--port', '0', '--workers', '2'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const workers = () => {
      try {
        return readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).length;
      } catch {
        return 0;
      }
    };
    await waitFor('two forked workers', () => workers() >= 2 || null, 20_000, 5);
    await new Promise((r) => setTimeout(r, 250)); // Node is up in the workers; the CLI's code is loading
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const exit = await exited;
    clearTimeout(timer);
    expect([exit.code, exit.signal], stderr.slice(-1500)).toEqual([0, null]);
    expect(stderr).toContain('SIGTERM: stopping 2 workers gracefully');
  }, 40_000);

  it('a SIGTERM while the build loads: requests are answered (503) until it stops, and the process exits 0 without waiting for the load', async () => {
    let waiting: Promise<{ status: number; connection: string | undefined }> | undefined;
    const r = await signalWhileStarting([], async (url) => {
      await waitFor('the server answering while it loads', async () => (await get(url, '/readyz')).status === 503 || null, 20_000);
      // a request in flight when the signal comes (its answer is written as the server stops)
      waiting = get(url, '/readyz').then((x) => ({ status: x.status, connection: x.headers.connection }));
    });
    expect([r.code, r.signal], r.stderr.slice(-1500)).toEqual([0, null]);
    expect(r.stderr).toContain('SIGTERM: shutting down gracefully (no build loaded yet)');
    expect(r.loaded).toBe(false);
    expect(r.ms).toBeLessThan(5_000);
    expect((await waiting!).status).toBe(503);
  }, 40_000);
});
