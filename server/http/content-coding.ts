/**
 * Content-coding negotiation (RFC 9110, section 12.5.3): which of the codings a file has at hand (br, gzip)
 * the client's Accept-Encoding prefers. Pure: header in, coding out.
 *
 * - the highest q wins; on equal q, br before gzip before identity (smaller first);
 * - `x-gzip` is gzip; `*` stands for every coding the header does not name;
 * - identity is acceptable unless the header refuses it (`identity;q=0`, or `*;q=0` without naming it), and
 *   chosen over an accepted coding only when the header names it with a higher q;
 *   when nothing at all is acceptable the file is sent as it is rather than a 406 (RFC 9110 allows either);
 * - a malformed q (not 0 to 1 with up to three decimals) makes that entry unacceptable.
 */
import type { ContentCoding } from '../../build/emit/precompress.ts';

export type Coding = ContentCoding | 'identity';

const PREFERENCE: Coding[] = ['br', 'gzip', 'identity'];
const QVALUE = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/;

export function negotiateCoding(header: string | undefined, available: readonly ContentCoding[]): Coding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name, ...params] = item.split(';');
    let coding = name!.trim().toLowerCase();
    if (!coding) continue;
    if (coding === 'x-gzip') coding = 'gzip';
    let weight = 1;
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k!.trim().toLowerCase() !== 'q') continue;
      const value = (v ?? '').trim();
      weight = QVALUE.test(value) ? Number(value) : 0;
    }
    q.set(coding, Math.max(q.get(coding) ?? 0, weight));
  }
  const star = q.get('*');
  const weightOf = (c: Coding): number => {
    const named = q.get(c);
    if (named !== undefined) return named;
    // identity, not named: acceptable unless `*;q=0`, but below any coding the client accepts
    if (c === 'identity') return star === 0 ? 0 : 0.0001;
    return star ?? 0;
  };
  let best: Coding = 'identity';
  let bestQ = -1;
  for (const c of PREFERENCE) {
    if (c !== 'identity' && !available.includes(c)) continue;
    const w = weightOf(c);
    if (w > 0 && w > bestQ) {
      best = c;
      bestQ = w;
    }
  }
  return best;
}
