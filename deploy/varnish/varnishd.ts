/**
 * Start Debian's varnishd with the shipped policy (physpay.vcl) in front of some physpay processes: the
 * way the end-to-end test and the benchmark run the edge, and a worked example of the commands an
 * operator runs (README: Deploying).
 *
 * The backends file is written into the edge's own folder; varnishd finds it and the policy through its
 * vcl_path. `extraVcl` is prepended to the top-level VCL (the test uses it to shorten the TTL).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const POLICY_DIR = dirname(fileURLToPath(import.meta.url));

export interface Backend {
  host: string;
  port: number;
}

export interface Edge {
  url: string;
  port: number;
  /** the varnishd instance folder (varnishadm -n / varnishstat -n) */
  name: string;
  /** varnishadm with this instance's arguments; returns stdout, throws on failure */
  adm(...args: string[]): string;
  /** MAIN.* counters of varnishstat (cache_hit, cache_miss, backend_req, s_pass, ...) */
  stats(): Record<string, number>;
  stop(): Promise<void>;
}

/** The backends include physpay.vcl expects: one backend per process, each probed on /readyz. */
export function backendsVcl(backends: Backend[]): string {
  const L = ['vcl 4.1;', '', 'probe physpay_ready {', '    .url = "/readyz";', '    .interval = 1s;', '    .timeout = 1s;', '    .window = 3;', '    .threshold = 2;', '    .initial = 2;', '}', ''];
  backends.forEach((b, i) => {
    if (!/^[\w.:-]+$/.test(b.host) || !Number.isInteger(b.port)) throw new Error(`bad backend ${b.host}:${b.port}`);
    L.push(`backend physpay${i + 1} {`, `    .host = "${b.host}";`, `    .port = "${b.port}";`, '    .probe = physpay_ready;', '}', '');
  });
  L.push('sub physpay_backends {', ...backends.map((_, i) => `    physpay.add_backend(physpay${i + 1});`), '}', '');
  return L.join('\n');
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
  });
}

/**
 * `cpu`: confine varnishd (manager and worker) to one CPU with taskset, as the benchmark does.
 */
export async function startVarnish(opts: { dir: string; backends: Backend[]; extraVcl?: string; memoryMb?: number; cpu?: number }): Promise<Edge> {
  const dir = resolve(opts.dir);
  mkdirSync(dir, { recursive: true });
  // varnishd reads the VCL and runs its worker as its own user (varnish, vcache): this folder and every
  // folder above it must be readable by them
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'physpay-backends.vcl'), backendsVcl(opts.backends));
  writeFileSync(join(dir, 'edge.vcl'), `vcl 4.1;\n${opts.extraVcl ?? ''}\ninclude "physpay.vcl";\n`);
  const name = join(dir, 'varnish');
  const port = await freePort();
  const args = [
    '-F', '-n', name, '-a', `127.0.0.1:${port}`, '-T', '127.0.0.1:0', '-f', join(dir, 'edge.vcl'),
    '-p', `vcl_path=${dir}:${POLICY_DIR}`, '-s', `malloc,${opts.memoryMb ?? 256}m`,
    // physpay negotiates brotli and gzip itself (physpay.vcl keeps one object per coding)
    '-p', 'http_gzip_support=off',
  ];
  const [cmd, argv] = opts.cpu === undefined ? ['varnishd', args] : ['taskset', ['-c', String(opts.cpu), 'varnishd', ...args]];
  const child: ChildProcess = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  let gone = false;
  const exited = new Promise<void>((r) => child.once('exit', () => ((gone = true), r())));
  const adm = (...a: string[]) => {
    const r = spawnSync('varnishadm', ['-n', name, ...a], { encoding: 'utf8', timeout: 10_000 });
    if (r.status !== 0) throw new Error(`varnishadm ${a.join(' ')} failed (${r.status}): ${r.stdout}${r.stderr}`);
    return r.stdout;
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(t);
  };
  const url = `http://127.0.0.1:${port}`;
  // ready when the child runs and every backend's probe says healthy
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (gone) throw new Error(`varnishd exited (${child.exitCode ?? child.signalCode}): ${log.slice(-2000)}`);
    try {
      const list = adm('backend.list');
      const healthy = (list.match(/^\S+\.physpay\d+\s.*\bhealthy\b/gm) ?? []).length; // the backends, not the director
      if (/running/i.test(adm('status')) && healthy >= opts.backends.length) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`varnishd did not become ready with ${opts.backends.length} healthy backend(s) within 30 s: ${log.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stats = () => {
    const r = spawnSync('varnishstat', ['-n', name, '-1', '-j', '-f', 'MAIN.*'], { encoding: 'utf8' });
    const j = JSON.parse(r.stdout) as { counters?: Record<string, { value: number }> } & Record<string, { value?: number }>;
    const counters = j.counters ?? j; // varnishstat 7 nests them under "counters"
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(counters)) if (k.startsWith('MAIN.') && typeof v?.value === 'number') out[k.slice(5)] = v.value;
    return out;
  };
  return { url, port, name, adm, stats, stop };
}
