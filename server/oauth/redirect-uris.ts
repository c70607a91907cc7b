/**
 * Redirect URIs of registered clients (pure). A client may register https URIs (any host) and, for apps
 * on the subscriber's own machine, plain http to a loopback host (127.0.0.1, [::1], localhost), as
 * RFC 8252 describes; nothing else (no custom schemes, no fragments, no user names). An authorization
 * request must name one of them exactly, except that a loopback URI matches on any port: a native app
 * listens on whatever port it gets (RFC 8252 section 7.3).
 */
export const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

function parse(uri: string): URL | null {
  try {
    return new URL(uri);
  } catch {
    return null;
  }
}

const isLoopbackHttp = (u: URL) => u.protocol === 'http:' && LOOPBACK.has(u.hostname);

/** Why `uri` cannot be registered as a redirect URI, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_URI_LENGTH) return `a redirect URI is longer than ${MAX_URI_LENGTH} characters`;
  const u = parse(uri);
  if (!u) return `${JSON.stringify(uri.slice(0, 200))} is not an absolute URI`;
  if (u.hash || uri.includes('#')) return `redirect URI ${u.origin}${u.pathname} has a fragment; redirect URIs must not`;
  if (u.username || u.password) return 'a redirect URI must not carry a user name or password';
  if (u.protocol === 'https:' && u.hostname) return null;
  if (isLoopbackHttp(u)) return null;
  if (u.protocol === 'http:') return `redirect URI ${u.origin} uses plain http to a host that is not this machine; use https, or http to 127.0.0.1, [::1] or localhost`;
  return `redirect URI scheme ${u.protocol} is not accepted; use https, or http to 127.0.0.1, [::1] or localhost`;
}

/** Does the requested redirect URI match one registered (exactly; a loopback URI on any port)? */
export function redirectUriMatches(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const r = parse(requested);
  if (!r || !isLoopbackHttp(r) || r.hash || r.username || r.password) return false;
  return registered.some((uri) => {
    const g = parse(uri);
    return g !== null && isLoopbackHttp(g) && g.hostname === r.hostname && g.pathname === r.pathname && g.search === r.search;
  });
}
