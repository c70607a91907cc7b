/**
 * The client address used for per-IP limits: the socket address, or the address proxies report in
 * X-Forwarded-For when `trust proxy` (a hop count or a list of subnets) says to believe them. IPv6
 * addresses are grouped by /56, as one customer usually holds a whole /56.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';
import { ipKeyGenerator } from 'express-rate-limit';

export type TrustProxy = number | string[] | false;

export function parseTrustProxy(value: string | undefined): TrustProxy {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true') throw new Error('trust proxy must be a hop count or a list of subnets, not "true" (clients could forge their address)');
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

export function clientIpResolver(trust: TrustProxy): (req: IncomingMessage) => string {
  const cache = new Map<string, string>();
  const key = (ip: string) => {
    let k = cache.get(ip);
    if (k === undefined) {
      k = ipKeyGenerator(ip, 56);
      if (cache.size > 10_000) cache.clear();
      cache.set(ip, k);
    }
    return k;
  };
  if (trust === false) return (req) => key(req.socket.remoteAddress ?? 'unknown');
  const fn = typeof trust === 'number' ? (_addr: string, i: number) => i < trust : proxyaddr.compile(trust);
  // X-Forwarded-For is text the client controls up to the trusted proxy: only a valid IP address becomes a
  // limit key (a 5,000-character string was stored once); anything else falls back to the socket address.
  return (req) => {
    const forwarded = proxyaddr(req as Parameters<typeof proxyaddr>[0], fn);
    return key(isIP(forwarded) ? forwarded : req.socket.remoteAddress ?? 'unknown');
  };
}
