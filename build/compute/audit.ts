/**
 * An independent re-check of the publication floors over the finished public documents (pure). It does
 * not trust the code that made the figures: it walks every object of every document and checks the
 * invariants the spec promises.
 */
import type { FeedKind } from '../contract/open-feeds.ts';
import { FLOORS, ROUNDING_MAX_N } from './stats.ts';

const FIGURES = ['median', 'mean', 'p10', 'p25', 'p75', 'p90', 'median_miles', 'median_years'] as const;

/**
 * The rounding step of a figure from 24 reports or fewer: $1,000 for money, $1 for $/wRVU, half a unit for
 * weeks, nights and years, 5 miles for a non-compete's radius (the whole offer: offer-figures.ts).
 */
function roundingStep(path: string, key: string, rate: boolean): number {
  if (key === 'median_miles') return 5;
  if (key === 'median_years' || /(^|\.)(pto_weeks|call_nights_per_month)$/.test(path)) return 0.5;
  if (rate || /(^|\.)conversion_rate$/.test(path)) return 1;
  return 1000;
}

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
    // the count behind the figures: n, or n_with for the whole offer's items (the reports that have it)
    const countKey = 'n' in o ? 'n' : 'n_with' in o ? 'n_with' : null;
    if (countKey !== null && figureKeys.length > 0 && kind !== 'institution' && kind !== 'institutions' && kind !== 'stateInstitutions') {
      const n = o[countKey];
      const published = figureKeys.filter((k) => o[k] !== null);
      if (published.length > 0) {
        const floor = floorAt(kind, path);
        if (typeof n !== 'number' || !Number.isInteger(n)) problems.push({ path, problem: `figures published with n = ${String(n)}` });
        else {
          if (n < floor) problems.push({ path, problem: `figures published from ${n} reports (floor ${floor})` });
          if ((o.p10 ?? null) !== null && n < FLOORS.tails) problems.push({ path, problem: `p10 published from ${n} reports (floor ${FLOORS.tails})` });
          if ((o.p90 ?? null) !== null && n < FLOORS.tails) problems.push({ path, problem: `p90 published from ${n} reports (floor ${FLOORS.tails})` });
          if (n <= ROUNDING_MAX_N) {
            for (const k of published) {
              const step = roundingStep(path, k, rateKind || inWrvu);
              const v = o[k] as number;
              if (Math.abs(v / step - Math.round(v / step)) > 1e-9) problems.push({ path: path ? `${path}.${k}` : k, problem: `${v} from ${n} reports is not rounded to ${step}` });
            }
          }
        }
      } else if (n !== null) {
        problems.push({ path, problem: `withheld figures but ${countKey} = ${String(n)} (must be null)` });
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
