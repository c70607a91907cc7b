import type { ServerResponse } from 'node:http';

/** Cache-Control of every public file of a build (feeds, pages) and of the API's contract documents. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=3600';

/**
 * The request id of an answer, carried on the response object by the app (see app.ts). The bare node:http
 * paths put it into their one `writeHead` call: a `setHeader` before `writeHead` takes Node off its fast
 * header path for every header of the answer (measured: about a quarter of the open feeds' throughput).
 */
export const REQUEST_ID = Symbol('physpay.requestId');
type WithRequestId = ServerResponse & { [REQUEST_ID]?: string };

export function setRequestId(res: ServerResponse, id: string): void {
  (res as WithRequestId)[REQUEST_ID] = id;
}

/** `{ 'x-request-id': id }` for the answer's header object ({} when the app set none). */
export function requestIdHeader(res: ServerResponse): Record<string, string> {
  const id = (res as WithRequestId)[REQUEST_ID];
  return id ? { 'x-request-id': id } : {};
}

/** Send a JSON body with the given status and headers (HEAD gets the headers only). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | number> = {}, head = false): void {
  // One copy of the text into one Buffer, newline included (concatenating first would copy the text twice).
  const json = JSON.stringify(body);
  const length = Buffer.byteLength(json);
  const bytes = Buffer.allocUnsafe(length + 1);
  bytes.write(json, 0, length, 'utf8');
  bytes[length] = 0x0a;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': bytes.length,
    'x-content-type-options': 'nosniff',
    ...requestIdHeader(res),
    ...headers,
  });
  res.end(head ? undefined : bytes);
}

/** True when an If-None-Match header value matches `etag` (weak comparison, as RFC 9110 asks for GET). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}
