/**
 * Real HTTP requests for server tests, on node:http: the path is sent exactly as given (no normalisation
 * of dot segments or escapes), and nothing is added to the request (Node's fetch adds
 * `cache-control: no-cache` next to If-None-Match, which defeats a 304).
 */
import http from 'node:http';

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  /** the body parsed as JSON (throws when it is not JSON) */
  json<T = Record<string, unknown>>(): T;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** defaults to a keep-alive agent shared by all requests of this module */
  agent?: http.Agent;
  timeoutMs?: number;
  /** a request body (its Content-Length is set) */
  body?: string;
}

export const keepAliveAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** Send one request to `base` (e.g. http://127.0.0.1:1234) for the raw `path`. */
export function request(base: string, path: string, opts: RequestOptions = {}): Promise<HttpResponse> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname.replace(/^\[|\]$/g, ''),
        port: Number(u.port),
        method: opts.method ?? 'GET',
        path,
        headers: opts.body === undefined ? opts.headers ?? {} : { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) },
        agent: opts.agent ?? keepAliveAgent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text,
            json: <T>() => JSON.parse(text) as T,
          });
        });
      },
    );
    req.setTimeout(opts.timeoutMs ?? 15_000, () => req.destroy(new Error(`request ${opts.method ?? 'GET'} ${path.slice(0, 100)} timed out`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Shorthand: GET with optional headers. */
export const get = (base: string, path: string, headers: Record<string, string> = {}) => request(base, path, { headers });

/** Poll `check` every `intervalMs` until it returns a truthy value or `timeoutMs` passes (then throws). */
export async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 15_000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
