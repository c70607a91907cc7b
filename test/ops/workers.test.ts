/**
 * `physpay serve --workers 2`: two processes answer on one port (told apart by the `pid` of their
 * request log lines) and share one service store, so the per-IP limit and a key's quota stay exact
 * whichever worker answers; a worker that dies is replaced by the primary.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnServe, type ServeProcess } from '../server/serve-process.ts';
import http from 'node:http';
import { request, waitFor } from '../helpers/http.ts';
import { addKey } from '../helpers/keys.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { awayFromMinuteEnd, fresh, logLines, requestLines, serveArgs, useOpsFixture } from './ops-helpers.ts';

const f = useOpsFixture('workers');
const stopLater = closeAfterAll();
let serve: ServeProcess;
const LIMIT = 25;

beforeAll(async () => {
  serve = stopLater(await spawnServe(serveArgs(f, '--workers', '2', '--ip-per-minute', String(LIMIT))));
}, 60_000);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** pids of the processes that logged a request line for `route` */
const pidsFor = (route: string) => new Set(requestLines(serve.stderr()).filter((l) => l.route === route).map((l) => l.pid));

describe('two workers, one port, one service store', () => {
  it('answers come from two worker processes (not the primary)', async () => {
    // batches of 30 fresh connections until both workers answered: the kernel gives each connection to the
    // worker that accepts it first (SCHED_NONE), so on a loaded machine one batch may go to one worker
    let pids = new Set<number>();
    for (let batch = 1; batch <= 10 && pids.size < 2; batch++) {
      const answers = await Promise.all(Array.from({ length: 30 }, () => fresh(serve.url, '/healthz')));
      expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
      pids = await waitFor('the log lines', () => (requestLines(serve.stderr()).filter((l) => l.route === '/healthz').length >= 30 * batch ? pidsFor('/healthz') : null));
    }
    expect(pids.size).toBe(2);
    expect(pids.has(serve.child.pid!)).toBe(false);
    for (const pid of pids) expect(alive(pid)).toBe(true);
  });

  it('the per-IP limit is exact across them: N concurrent requests, exactly the limit served', async () => {
    await awayFromMinuteEnd(20);
    // many more than the limit, so that both workers take part even when the kernel favours one (SCHED_NONE);
    // on a loaded machine one worker may still take a whole burst: then the burst is sent again from another
    // loopback address (a client with a limit of its own), until one burst was answered by both
    const N = 150;
    const route = '/data/api/v1/states.json';
    let both = false;
    for (let attempt = 1; attempt <= 4 && !both; attempt++) {
      const from = `127.0.0.${10 + attempt}`;
      const seen = requestLines(serve.stderr()).filter((l) => l.route === route).length;
      const answers = await Promise.all(Array.from({ length: N }, () => request(serve.url, route, { headers: { connection: 'close' }, agent: new http.Agent({ keepAlive: false, localAddress: from }) })));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200), from).toHaveLength(LIMIT);
      expect(statuses.filter((s) => s === 429), from).toHaveLength(N - LIMIT);
      const lines = await waitFor('log lines', () => {
        const all = requestLines(serve.stderr()).filter((l) => l.route === route);
        return all.length >= seen + N ? all.slice(seen) : null;
      });
      both = new Set(lines.map((l) => l.pid)).size === 2;
    }
    expect(both, 'no burst of 150 was answered by both workers').toBe(true);
  });

  it('a key\'s daily quota is exact across them', async () => {
    const key = await addKey(f.serviceDb, 'starter', { used: 90 });
    const answers = await Promise.all(Array.from({ length: 30 }, () => fresh(serve.url, '/api/v1/specialties', { 'x-api-key': key })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    const usage = await fresh(serve.url, '/api/v1/me/usage', { 'x-api-key': key });
    expect(usage.json<{ usage: { requests_today: number } }>().usage.requests_today).toBe(100);
  });

  it('a killed worker is replaced by the primary', async () => {
    const before = pidsFor('/healthz');
    const [victim, survivor] = [...before];
    process.kill(victim!, 'SIGKILL');
    await waitFor('the primary to report the exit', () => logLines(serve.stderr()).some((l) => l.msg === `worker ${victim} exited (SIGKILL); starting a new one`), 15_000);
    expect(alive(victim!)).toBe(false);
    // the replacement answers next to the survivor
    const fresher = await waitFor('a request answered by the new worker', async () => {
      const rs = await Promise.all(Array.from({ length: 10 }, () => fresh(serve.url, '/healthz')));
      expect(rs.map((r) => r.status)).toEqual(Array(10).fill(200));
      const now = pidsFor('/healthz');
      const added = [...now].filter((p) => !before.has(p));
      return added.length > 0 ? added : null;
    }, 20_000, 100);
    expect(fresher).toHaveLength(1);
    expect(alive(fresher[0]!)).toBe(true);
    expect(alive(survivor!)).toBe(true);
    expect(alive(serve.child.pid!)).toBe(true);
  }, 45_000);
});
