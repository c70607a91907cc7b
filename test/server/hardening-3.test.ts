/**
 * Hardening III (issue 40), the HTTP edges: a client that sends its body too slowly gets the documented
 * `408 {"error"}` before the connection closes, on every route that reads a body (item 4); an oversized
 * chunked report is refused at the limit, not after reading it whole (item 8).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { join } from 'node:path';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { closeAfterAll, startTestServer } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import type { RunningServer } from '../../server/main.ts';
import { parsePriceMap } from '../../server/billing/prices.ts';

const later = closeAfterAll();
const tmp = useTempDir('hardening3');
const REQUEST_TIMEOUT_MS = 2_000;
let s: RunningServer;

beforeAll(async () => {
  const { dist } = goldenBuildIn(tmp.path, join(tmp.path, 'dist'));
  s = later(await startTestServer(dist, join(tmp.path, 'service.db'), {
    headersTimeoutMs: 1_000, requestTimeoutMs: REQUEST_TIMEOUT_MS,
    billing: { webhookSecret: 'whsec_hardening3', prices: parsePriceMap('price_basic=basic').map },
  }));
}, 60_000);

interface RawAnswer { text: string; firstByteMs: number | null; closedMs: number | null }

/**
 * Write `head`, then `drip` every `everyMs` until the server answers or closes (or `waitMs` passes); resolve
 * with what came back, when its first byte came and when the connection closed.
 */
function slowRequest(head: string, drip: () => string, everyMs: number, waitMs: number): Promise<RawAnswer> {
  const { hostname, port } = new URL(s.url);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    const answer: RawAnswer = { text: '', firstByteMs: null, closedMs: null };
    const timer = setInterval(() => { if (!socket.destroyed && answer.firstByteMs === null) socket.write(drip()); }, everyMs);
    const done = () => { clearInterval(timer); clearTimeout(cap); socket.destroy(); resolve(answer); };
    const cap = setTimeout(done, waitMs);
    socket.on('data', (d) => {
      answer.firstByteMs ??= Date.now() - started;
      answer.text += d.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => { answer.closedMs = Date.now() - started; done(); });
    socket.write(head);
  });
}

const bodyOf = (text: string) => text.slice(text.indexOf('\r\n\r\n') + 4);

describe('a body sent too slowly (item 4)', () => {
  const routes: [string, string][] = [
    ['the report form', 'POST /contribute HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n'],
    ['the JSON report', 'POST /contribute HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n'],
    ['the billing webhook', 'POST /billing/stripe/webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nStripe-Signature: t=1,v1=00\r\nContent-Length: 1000\r\n\r\n'],
    ['the MCP endpoint (a declared length)', 'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n'],
    ['the MCP endpoint (chunked)', 'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n'],
  ];
  for (const [name, head] of routes) {
    it(`${name}: 408 {"error"} at the request timeout, then the connection closes`, async () => {
      const chunked = head.includes('chunked');
      const r = await slowRequest(head, () => (chunked ? '1\r\n \r\n' : ' '), 300, REQUEST_TIMEOUT_MS + 6_000);
      expect(r.text, 'an answer, not a bare close').toMatch(/^HTTP\/1\.1 408 /);
      expect(r.text.toLowerCase()).toContain('content-type: application/json');
      expect(r.text.toLowerCase(), 'answered through the request\'s response: logged and counted').toContain('x-request-id: ');
      expect(JSON.parse(bodyOf(r.text)).error).toMatch(/not received in time/);
      expect(r.firstByteMs!).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
      expect(r.firstByteMs!).toBeLessThan(REQUEST_TIMEOUT_MS + 2_500);
      expect(r.closedMs, 'the server closed the connection').not.toBeNull();
    }, 20_000);
  }
});

describe('an oversized chunked report (item 8)', () => {
  it('is answered 413 as soon as it passes 16 kB, while the client is still sending', async () => {
    const chunk = `${(4096).toString(16)}\r\n${'a'.repeat(4096)}\r\n`;
    const r = await slowRequest('POST /contribute HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n', () => chunk, 50, 8_000);
    expect(r.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(bodyOf(r.text)).error).toMatch(/16 kB/);
    // 16 kB is five chunks at 50 ms: the answer comes long before the 8 s the client would keep sending
    expect(r.firstByteMs!).toBeLessThan(2_000);
    expect(r.closedMs, 'the server closed the connection').not.toBeNull();
  }, 20_000);
});
