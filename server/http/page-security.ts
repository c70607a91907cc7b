/**
 * Browser protections of the HTML pages (pure): a Content-Security-Policy that allows exactly the page's own
 * inline script and style (by their SHA-256) and same-origin fetches (the prebuilt search index), nothing
 * from elsewhere; no framing; no MIME sniffing; the referrer cut to the origin across sites. physpay serve
 * and the static export (server/export/) send the same headers for the same page.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

const INLINE = /<(script|style)(\s[^>]*)?>([\s\S]*?)<\/\1>/gi;

/** 'sha256-...' sources of the inline scripts and styles of a page (data blocks such as JSON-LD are not run and need none). */
function inlineHashes(html: string): { script: string[]; style: string[] } {
  const script = new Set<string>();
  const style = new Set<string>();
  for (const m of html.matchAll(INLINE)) {
    const attrs = m[2] ?? '';
    if (m[1]!.toLowerCase() === 'script' && /\btype\s*=\s*["']?application\/(ld\+)?json/i.test(attrs)) continue;
    const hash = `'sha256-${createHash('sha256').update(m[3]!, 'utf8').digest('base64')}'`;
    (m[1]!.toLowerCase() === 'script' ? script : style).add(hash);
  }
  return { script: [...script].sort(), style: [...style].sort() };
}

/** The Content-Security-Policy of one page. */
export function pageCsp(html: string): string {
  const { script, style } = inlineHashes(html);
  return [
    "default-src 'none'",
    `script-src ${script.length ? script.join(' ') : "'none'"}`,
    `style-src ${style.length ? style.join(' ') : "'none'"}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The security headers of an HTML page (lower-case names, as node:http takes them). */
export function pageSecurityHeaders(html: Buffer | string): Record<string, string> {
  return {
    'content-security-policy': pageCsp(typeof html === 'string' ? html : html.toString('utf8')),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}

/** Their names as HTTP shows them (the static export's manifests). */
export const PAGE_SECURITY_HEADER_NAMES: Record<string, string> = {
  'content-security-policy': 'Content-Security-Policy',
  'x-frame-options': 'X-Frame-Options',
  'x-content-type-options': 'X-Content-Type-Options',
  'referrer-policy': 'Referrer-Policy',
};

const isHtml = (contentType: string) => contentType.startsWith('text/html');

const cache = new WeakMap<Buffer, Record<string, string>>();

/** Security headers for a response body of `contentType`: those of a page for HTML (cached per body), none otherwise. */
export function securityHeadersFor(contentType: string, body: Buffer): Record<string, string> {
  if (!isHtml(contentType)) return {};
  let h = cache.get(body);
  if (!h) cache.set(body, (h = pageSecurityHeaders(body)));
  return h;
}

/** The protections every HTML answer carries at least (a page's own CSP, by hash, is stricter and kept). */
const HTML_FLOOR: Record<string, string> = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'content-security-policy': "frame-ancestors 'none'",
};

/**
 * Every HTML answer on `res`, whatever its status or handler (an error page, a 405, the API reference), gets
 * the protections it lacks when its head is written: no framing, no MIME sniffing, the referrer policy, and a
 * CSP that at least forbids framing. Handlers that set their own keep them. Node writes an implicit head
 * through writeHead too, so every path is covered.
 */
export function guardHtml(res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function guarded(this: ServerResponse, ...args: unknown[]) {
    const given = args.find((a, i) => i > 0 && a !== null && typeof a === 'object' && !Array.isArray(a)) as Record<string, unknown> | undefined;
    const inArgs = (name: string) => given !== undefined && Object.keys(given).some((k) => k.toLowerCase() === name);
    const type = String((inArgs('content-type') ? Object.entries(given!).find(([k]) => k.toLowerCase() === 'content-type')![1] : this.getHeader('content-type')) ?? '');
    if (isHtml(type)) {
      for (const [name, value] of Object.entries(HTML_FLOOR)) if (!this.hasHeader(name) && !inArgs(name)) this.setHeader(name, value);
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}
