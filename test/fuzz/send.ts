/**
 * Sending fuzz cases: node:http with the path and header values written as bytes (latin1), so nothing is
 * normalised or re-encoded on the way; raw cases go over a plain socket. A small pool keeps `concurrency`
 * requests in flight.
 */
import http from 'node:http';
import net from 'node:net';
import { materialise, type FuzzCase } from './arbitraries.ts';

export interface FuzzResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** how the exchange ended when there was no HTTP response (raw cases, refused request heads) */
  transportError?: string;
}

export const fuzzAgent = new http.Agent({ keepAlive: true, maxSockets: 32 });

/** Bytes of the request head (request line and headers), as Node's parser counts them against its limit. */
export function headBytes(c: FuzzCase): number {
  let n = c.method.length + c.path.length + 12;
  for (const [k, v] of Object.entries(c.headers)) n += k.length + v.length + 4;
  return n;
}

export function send(base: string, c: FuzzCase, timeoutMs = 20_000): Promise<FuzzResponse> {
  return c.raw ? sendRaw(base, c, timeoutMs) : sendHttp(base, c, timeoutMs);
}

function sendHttp(base: string, c: FuzzCase, timeoutMs: number): Promise<FuzzResponse> {
  const u = new URL(base);
  const body = c.body ? materialise(c.body) : undefined;
  const headers: Record<string, string> = { ...c.headers };
  if (body && !c.chunked) headers['content-length'] = String(body.length);
  if (body && c.chunked) headers['transfer-encoding'] = 'chunked';
  return new Promise((resolve, reject) => {
    let req: http.ClientRequest;
    try {
      req = http.request({ host: u.hostname, port: Number(u.port), method: c.method, path: c.path, headers, agent: fuzzAgent, setHost: headers.host === undefined }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('error', (err) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), transportError: err.message }));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
    } catch (err) {
      reject(new Error(`the client refused the case (generator bug): ${(err as Error).message}`));
      return;
    }
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    // The server may answer (413, 431) and close before the whole request is written.
    req.on('error', (err) => resolve({ status: 0, headers: {}, body: Buffer.alloc(0), transportError: (err as NodeJS.ErrnoException).code ?? err.message }));
    if (body && body.length > 1_000_000) {
      // Write big bodies in pieces so the server can refuse early.
      let off = 0;
      const step = () => {
        while (off < body.length) {
          const piece = body.subarray(off, off + 256 * 1024);
          off += piece.length;
          if (!req.write(piece)) {
            req.once('drain', step);
            return;
          }
        }
        req.end();
      };
      step();
    } else {
      req.end(body);
    }
  });
}

/** A raw exchange: write the bytes, read until the server closes, parse the first response if any. */
function sendRaw(base: string, c: FuzzCase, timeoutMs: number): Promise<FuzzResponse> {
  const u = new URL(base);
  const spec = c.raw!;
  const bytes = 'text' in spec ? Buffer.from(spec.text, 'latin1') : materialise(spec);
  return new Promise((resolve) => {
    const sock = net.connect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (transportError?: string) => {
      if (settled) return;
      settled = true;
      sock.destroy();
      resolve(parseRaw(Buffer.concat(chunks), transportError));
    };
    sock.setTimeout(Math.min(timeoutMs, 5_000), () => finish('timeout'));
    sock.on('connect', () => sock.end(bytes));
    sock.on('data', (d: Buffer) => chunks.push(d));
    sock.on('error', (err) => finish((err as NodeJS.ErrnoException).code ?? err.message));
    sock.on('close', () => finish());
  });
}

function parseRaw(all: Buffer, transportError?: string): FuzzResponse {
  const end = all.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: all, transportError: transportError ?? (all.length ? 'unparsable response' : 'closed without a response') };
  const lines = all.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]!);
  const headers: http.IncomingHttpHeaders = {};
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body = all.subarray(end + 4);
  if (String(headers['transfer-encoding'] ?? '').includes('chunked')) body = dechunk(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status: m ? Number(m[1]) : 0, headers, body, transportError };
}

function dechunk(b: Buffer): Buffer {
  const out: Buffer[] = [];
  let off = 0;
  for (;;) {
    const eol = b.indexOf('\r\n', off);
    if (eol < 0) break;
    const size = parseInt(b.subarray(off, eol).toString('latin1'), 16);
    if (!size) break;
    out.push(b.subarray(eol + 2, eol + 2 + size));
    off = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** Run `work` over `items` with at most `concurrency` in flight. */
export async function pool<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return out;
}
