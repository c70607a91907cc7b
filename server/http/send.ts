import type { ServerResponse } from 'node:http';

/** Send a JSON body with the given status and headers (HEAD gets the headers only). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | number> = {}, head = false): void {
  const text = Buffer.from(`${JSON.stringify(body)}\n`);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': text.length,
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(head ? undefined : text);
}

/** True when an If-None-Match header value matches `etag` (weak comparison, as RFC 9110 asks for GET). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}
