/**
 * The tool server's sign-in address, `/mcp?signin`: the same endpoint as `/mcp`, except that a request
 * without an `Authorization` header gets 401 with the OAuth challenge. Plain `/mcp` stays open (the open
 * tools need no sign-in), so a host that starts OAuth only after a 401 (most do) would never sign in there;
 * given this address, it does. A request that carries a token goes on to `/mcp` unchanged (its target
 * rewritten to `/mcp`), where the Bearer hook takes it; a CORS preflight goes on too.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Is `url` the sign-in address (`/mcp` with a `signin` query parameter, any letter case of the path)? */
export function isSigninTarget(url: string): boolean {
  const q = url.indexOf('?');
  if (q < 0 || url.slice(0, q).toLowerCase() !== '/mcp') return false;
  return new URLSearchParams(url.slice(q + 1)).has('signin');
}

/**
 * Answer an unauthenticated request to the sign-in address (401 with `challenge`; true), or send the request on
 * as `/mcp` (false). `challenge` is null before a build is loaded: /mcp then answers as it does.
 */
export function signinGate(req: IncomingMessage, res: ServerResponse, challenge: string | null): boolean {
  if (!isSigninTarget(req.url ?? '')) return false;
  if (req.method === 'OPTIONS' || req.headers.authorization !== undefined || challenge === null) {
    req.url = '/mcp';
    return false;
  }
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'this address asks you to sign in: approve access with your API key (OAuth), or use /mcp for the open tools' }, id: null });
  res.writeHead(401, {
    'www-authenticate': challenge,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'WWW-Authenticate',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
