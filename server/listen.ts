/**
 * Binding the port, first thing (README: Operations, "Start-up"): `listenFirst` creates the HTTP server and
 * listens before the rest of the server's code is even imported and before any build is loaded, so a taken
 * port or a bad address is reported in a fraction of a second. Requests that arrive before the app is
 * attached (the second or so its modules take to load) wait for it and are then answered by it. Only
 * node:http, node:net and the small send helpers here: importing this file costs nothing.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { requestIdHeader } from './http/send.ts';

/**
 * Slow clients (README: Security): a connection that has not sent its whole request line and headers within
 * HEADERS_TIMEOUT_MS, or its whole request within REQUEST_TIMEOUT_MS, gets 408 and is closed (nginx gives a
 * client 60 s per read of the headers and body; physpay's requests are small GETs and JSON bodies of at most
 * a few kB, so it gives less). Idle keep-alive connections close after 65 s (longer than a load balancer's 60).
 */
export const HEADERS_TIMEOUT_MS = 15_000;
export const REQUEST_TIMEOUT_MS = 30_000;
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * What Node answers itself, before or while a handler reads a request, in the documented error shape
 * (`{"error"}` with a reason) instead of an empty body or a bare close: 431 for a request line or headers over
 * 16 KB, 408 for a client too slow to send its request (its headers, or its body while a handler waits for
 * it), 400 for a malformed request. The connection is closed after the answer.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = err.code === 'HPE_HEADER_OVERFLOW'
    ? [431, 'Request Header Fields Too Large', 'request line or headers larger than 16 KB (a URL that long is not one this service answers)']
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT'
      ? [408, 'Request Timeout', 'request not received in time; the connection is closed']
      : [400, 'Bad Request', 'malformed HTTP request'];
  const body = `${JSON.stringify({ error: message })}\n`;
  if (inFlight) {
    // A handler is reading the body: answer through its response, so the request is logged and counted with
    // its status and keeps its request id; Node closes the connection once the answer is written.
    for (const name of ['content-length', 'content-encoding', 'etag', 'last-modified', 'cache-control']) inFlight.removeHeader(name);
    inFlight.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', ...requestIdHeader(inFlight), connection: 'close' });
    inFlight.end(body);
    return;
  }
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`);
}

export interface ListenOptions {
  host: string;
  /** 0 = any free port */
  port: number;
  /** slow clients (tests shorten them), ms */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

export interface BoundServer {
  server: Server;
  port: number;
  /** http://HOST:PORT (an IPv6 host in brackets) */
  url: string;
  /** when the port was bound, ms since the process started */
  boundAtMs: number;
  /** Hand the server its request listener; requests that came before it are passed to it now, in order. */
  serve(listener: RequestListener): void;
}

/** Create the HTTP server and listen on host:port; rejects with the listen error (EADDRINUSE, EACCES, ...). */
export async function listenFirst(opts: ListenOptions): Promise<BoundServer> {
  const waiting: [IncomingMessage, ServerResponse][] = [];
  const hold: RequestListener = (req, res) => {
    waiting.push([req, res]);
  };
  const headersTimeout = opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const server = createServer({
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    headersTimeout,
    requestTimeout: Math.max(opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, headersTimeout),
    // how often Node looks for connections past those limits (default 30 s, which let a slow client stay 90 s)
    connectionsCheckingInterval: Math.min(1_000, headersTimeout / 2),
  }, hold);
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`,
    boundAtMs: performance.now(),
    serve(listener) {
      server.off('request', hold);
      server.on('request', listener);
      for (const [req, res] of waiting.splice(0)) listener(req, res);
    },
  };
}
