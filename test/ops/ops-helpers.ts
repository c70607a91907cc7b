/**
 * Shared setup of the operations tests: a golden build in a fresh folder for `physpay serve` processes
 * (keys: addKey of test/helpers/keys.ts, written into the service store before or while servers run), and
 * readers for the JSON log lines and the Prometheus text.
 */
import { join } from 'node:path';
import http from 'node:http';
import { useGoldenDir, type GoldenDir } from '../helpers/golden-build.ts';
import { request, type HttpResponse } from '../helpers/http.ts';

export interface OpsFixture extends GoldenDir {
  /** `<path>/service.db` (created by the first server or key) */
  readonly serviceDb: string;
}

/** The golden DB and build in a temporary folder of this file's tests (useGoldenDir), and a service DB path there. */
export function useOpsFixture(prefix: string): OpsFixture {
  const golden = useGoldenDir(`ops-${prefix}`);
  return Object.defineProperty(golden, 'serviceDb', { get: () => join(golden.path, 'service.db'), enumerable: true }) as OpsFixture;
}

export const serveArgs = (f: OpsFixture, ...extra: string[]) => ['--data', f.dist, '--service-db', f.serviceDb, '--port', '0', '--host', '127.0.0.1', ...extra];

export interface LogLine {
  level: number;
  time: string;
  pid: number;
  msg: string;
  req_id?: string;
  interface?: string;
  method?: string;
  route?: string;
  status?: number;
  ms?: number;
  [k: string]: unknown;
}

/** Every line of stderr parsed as JSON (throws on a line that is not). */
export function logLines(stderr: string): LogLine[] {
  return stderr.split('\n').filter((l) => l.trim() !== '').map((l) => {
    try {
      return JSON.parse(l) as LogLine;
    } catch {
      throw new Error(`stderr line is not JSON: ${l.slice(0, 300)}`);
    }
  });
}

export const requestLines = (stderr: string) => logLines(stderr).filter((l) => l.msg === 'request');

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parse Prometheus text exposition (format 0.0.4): every sample line, strictly. */
export function parseMetrics(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    if (m[2]) {
      const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/y;
      let lm: RegExpExecArray | null;
      while ((lm = re.exec(m[2])) !== null) labels[lm[1]!] = lm[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      if (re.lastIndex !== m[2].length && m[2].length > 0 && Object.keys(labels).length === 0) throw new Error(`bad labels: ${line}`);
    }
    const v = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    // prom-client writes NaN as "Nan"; Prometheus reads it in any letter case
    if (Number.isNaN(v) && m[3]!.toLowerCase() !== 'nan') throw new Error(`bad value: ${line}`);
    out.push({ name: m[1]!, labels, value: v });
  }
  return out;
}

/** Sum of the samples named `name` whose labels include `match`. */
export function sum(samples: Sample[], name: string, match: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v)).reduce((a, s) => a + s.value, 0);
}

export async function scrape(url: string): Promise<{ r: HttpResponse; samples: Sample[] }> {
  const r = await request(url, '/metrics', { agent: new http.Agent({ keepAlive: false }) });
  if (r.status !== 200) throw new Error(`/metrics answered ${r.status}: ${r.text.slice(0, 200)}`);
  return { r, samples: parseMetrics(r.text) };
}

/** A request on its own connection (no keep-alive), so that a cluster spreads them over its workers. */
export const fresh = (url: string, path: string, headers: Record<string, string> = {}, method = 'GET') =>
  request(url, path, { headers: { connection: 'close', ...headers }, agent: new http.Agent({ keepAlive: false }), method });

/** Wait until the current minute has at least `seconds` left (per-minute limits are aligned to clock minutes). */
export async function awayFromMinuteEnd(seconds = 15): Promise<void> {
  const left = 60 - (Date.now() / 1000) % 60;
  if (left < seconds) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** POST a JSON-RPC message to /mcp (plain JSON body). */
export function mcpPost(url: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpResponse> {
  const text = JSON.stringify(body);
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: Number(u.port), method: 'POST', path: '/mcp', headers: { ...MCP_HEADERS, ...headers, 'content-length': Buffer.byteLength(text) }, agent: new http.Agent({ keepAlive: false }) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const b = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b, text: b.toString(), json: <T>() => JSON.parse(b.toString()) as T });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(text);
  });
}
