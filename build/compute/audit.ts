/**
 * An independent re-check of the publication floors over the finished public documents (pure). It does
 * not trust the code that made the figures: it walks every object of every document and checks the
 * invariants the spec promises.
 */
import type { FeedKind } from '../contract/open-feeds.ts';
import { FLOORS, ROUNDING_MAX_N } from './stats.ts';

const FIGURES = ['median', 'mean', 'p10', 'p25', 'p75', 'p90'] as const;

/** Floor of a summary object, by feed kind and JSON path (e.g. "" for the root, "top_states[2]"). */
function floorAt(kind: FeedKind, path: string): number {
  if (kind === 'specialtyState') return FLOORS.specialtyInState;
  if (/^top_states\[\d+\]$/.test(path) || /^top_specialties\[\d+\]$/.test(path)) return FLOORS.specialtyInState;
  return FLOORS.national; // national and whole-state figures, practice settings, wRVU, list entries
}

export interface FloorViolation {
  path: string;
  problem: string;
}

export function auditDocument(kind: FeedKind, doc: unknown): FloorViolation[] {
  const problems: FloorViolation[] = [];
  const rateKind = kind === 'wrvu';
  const visit = (node: unknown, path: string, inWrvu: boolean) => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => visit(v, `${path}[${i}]`, inWrvu));
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    const figureKeys = FIGURES.filter((k) => k in o);
    if ('n' in o && figureKeys.length > 0 && kind !== 'institution' && kind !== 'institutions' && kind !== 'stateInstitutions') {
      const n = o.n;
      const published = figureKeys.filter((k) => o[k] !== null);
      if (published.length > 0) {
        const floor = floorAt(kind, path);
        if (typeof n !== 'number' || !Number.isInteger(n)) problems.push({ path, problem: `figures published with n = ${String(n)}` });
        else {
          if (n < floor) problems.push({ path, problem: `figures published from ${n} reports (floor ${floor})` });
          if ((o.p10 ?? null) !== null && n < FLOORS.tails) problems.push({ path, problem: `p10 published from ${n} reports (floor ${FLOORS.tails})` });
          if ((o.p90 ?? null) !== null && n < FLOORS.tails) problems.push({ path, problem: `p90 published from ${n} reports (floor ${FLOORS.tails})` });
          if (n <= ROUNDING_MAX_N) {
            const step = rateKind || inWrvu ? 1 : 1000;
            for (const k of published) {
              const v = o[k] as number;
              if (Math.abs(v / step - Math.round(v / step)) > 1e-9) problems.push({ path: path ? `${path}.${k}` : k, problem: `${v} from ${n} reports is not rounded to ${step}` });
            }
          }
        }
      } else if (n !== null) {
        problems.push({ path, problem: `withheld figures but n = ${String(n)} (must be null)` });
      }
    }
    for (const [k, v] of Object.entries(o)) visit(v, path ? `${path}.${k}` : k, inWrvu || k === 'wrvu');
  };
  visit(doc, '', false);
  const root = doc as Record<string, unknown>;
  if (['specialty', 'specialtyState', 'state', 'wrvu'].includes(kind)) {
    const withheld = root.withheld === true;
    if (withheld !== ('notice' in root)) problems.push({ path: 'notice', problem: withheld ? 'withheld without a notice' : 'notice present on published figures' });
  }
  return problems;
}
