/**
 * Node (Express) to web-standard Request/Response and back, for the SDK's fetch-shaped MCP handlers. The
 * body is passed to the SDK already parsed (`parsedBody`), so the Request carries headers only.
 */
import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';

export function toWebRequest(req: IncomingMessage, url: string): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || k === 'content-length' || k === 'transfer-encoding') continue;
    headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  return new Request(url, { method: req.method ?? 'POST', headers });
}

/** Write a web Response to Node's response: headers as given, the body buffered, or streamed when it is SSE. */
export async function sendWebResponse(res: ServerResponse, r: Response): Promise<void> {
  res.statusCode = r.status;
  r.headers.forEach((value, key) => res.setHeader(key, value));
  if (!r.body) {
    res.end();
    return;
  }
  if ((r.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    Readable.fromWeb(r.body as import('node:stream/web').ReadableStream).pipe(res);
    return;
  }
  res.end(Buffer.from(await r.arrayBuffer()));
}
