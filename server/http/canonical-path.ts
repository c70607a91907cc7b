/**
 * One canonical path (the quality bars in README: Benchmarks): the request target is decoded and normalised once, before routing, so no
 * spelling of a path (percent-escapes, %2f, letter case, doubled slashes) reaches a file by a route that
 * skips the limits. Routing looks only at `route`; handlers still see the raw target (the open-data handler
 * resolves aliases and names the canonical URL in a Link header).
 */

export interface CanonicalTarget {
  /** decoded path, runs of slashes collapsed (no query) */
  path: string;
  /** `path` in lower case: what routing compares prefixes with */
  route: string;
}

export const MALFORMED_PATH = 'malformed path (bad percent-encoding, NUL, backslash or dot segment)';

/**
 * The canonical form of an origin-form request target (`/a/b?q`), or null when it cannot be a clean path:
 * a bad percent-escape, a NUL or backslash, or a `.` / `..` segment (before or after decoding).
 */
export function canonicalTarget(url: string): CanonicalTarget | null {
  const end = url.search(/[?#]/);
  const raw = end >= 0 ? url.slice(0, end) : url;
  let path: string;
  try {
    path = raw.includes('%') ? decodeURIComponent(raw) : raw;
  } catch {
    return null;
  }
  if (/[\0\\]/.test(path)) return null;
  path = path.replace(/\/{2,}/g, '/');
  if (/(^|\/)\.\.?(\/|$)/.test(path)) return null;
  return { path, route: path.toLowerCase() };
}

/** Does a canonical route fall under `prefix` (a path such as /data or /api/v1)? */
export function under(route: string, prefix: string): boolean {
  return route === prefix || route.startsWith(`${prefix}/`);
}
