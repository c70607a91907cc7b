/**
 * Reading a request body with a size limit (the report form and the billing webhook; the tool server's body
 * goes through express.json or its own bounded fast path). A body over the limit, declared or chunked, is
 * refused the moment it passes the limit: nothing more is read, and the caller answers 413 with
 * `Connection: close` so the rest is never taken. A body the client stops sending is not waited for here:
 * the server's request timeout answers it 408 (server/listen.ts), and the reader reports it as gone.
 */
import type { IncomingMessage } from 'node:http';

export type BodyRead =
  | { kind: 'body'; bytes: Buffer }
  /** declared or sent larger than the limit */
  | { kind: 'too-large' }
  /** the connection ended before the body did (the client left, or the request timed out and was answered) */
  | { kind: 'gone' };

export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      resolve({ kind: 'too-large' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (read: BodyRead) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(read);
    };
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.pause();
        settle({ kind: 'too-large' });
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => settle({ kind: 'body', bytes: Buffer.concat(chunks, size) }));
    req.on('error', () => settle({ kind: 'gone' }));
    req.on('close', () => settle({ kind: 'gone' }));
  });
}
