/** Open CORS for the public interfaces (open data, pages, tool server discovery). */
export const EXPOSED_HEADERS = [
  'ETag', 'Link', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Request-Id', 'X-PhysPay-Build',
  'X-RateLimit-Limit-Daily', 'X-RateLimit-Remaining-Daily', 'X-RateLimit-Limit-Monthly', 'X-RateLimit-Remaining-Monthly', 'X-RateLimit-Reset',
].join(', ');

export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS,
} as const;

/** Headers of a preflight answer; echoes the requested headers (all are allowed). */
export function preflightHeaders(requested: string | undefined): Record<string, string> {
  return {
    ...CORS_HEADERS,
    'access-control-allow-methods': 'GET, HEAD, OPTIONS',
    'access-control-allow-headers': requested && /^[\w\-, ]{1,1000}$/.test(requested) ? requested : 'If-None-Match, Content-Type',
    'access-control-max-age': '86400',
    'content-length': '0',
  };
}
