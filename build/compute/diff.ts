/**
 * Sanity diff between the previous published build and the new one (pure). A nightly build that suddenly
 * loses many reports or moves medians far is refused unless the operator forces it.
 */
import { summaryCounts, type BuildSummary } from '../contract/manifest.ts';

export interface DiffThresholds {
  /** largest allowed relative drop of approved reports, e.g. 0.2 */
  maxCountDrop: number;
  /** largest allowed relative move of a specialty's national median, e.g. 0.15 */
  maxMedianShift: number;
  /** medians are compared only for specialties with at least this many reports in both builds */
  minReportsForMedian: number;
}

export const DEFAULT_THRESHOLDS: DiffThresholds = { maxCountDrop: 0.2, maxMedianShift: 0.15, minReportsForMedian: 25 };

/** What the sanity diff compares of a build (build.json; an older one without approved_reports too). */
export type DiffSide = Pick<BuildSummary, 'reports_used' | 'approved_reports' | 'medians' | 'counts'>;

/**
 * The count check compares approved reports (every approved report read), not reports used: reports used
 * move with the headline years (a new compensation year shifts them), approved reports only when reports
 * are removed, rejected or undone.
 */
export function compareBuilds(prev: DiffSide, next: DiffSide, t: DiffThresholds): string[] {
  const problems: string[] = [];
  const before = summaryCounts(prev).approved;
  const after = summaryCounts(next).approved;
  if (before > 0) {
    const drop = (before - after) / before;
    if (drop > t.maxCountDrop) {
      problems.push(`approved reports fell from ${before.toLocaleString('en-US')} to ${after.toLocaleString('en-US')} (-${(drop * 100).toFixed(1)}%, limit ${(t.maxCountDrop * 100).toFixed(0)}%)`);
    }
  }
  for (const slug of Object.keys(prev.medians).sort()) {
    const a = prev.medians[slug]!;
    const b = next.medians[slug];
    if ((prev.counts[slug] ?? 0) < t.minReportsForMedian || (next.counts[slug] ?? 0) < t.minReportsForMedian) continue;
    if (b === undefined) {
      problems.push(`${slug}: national median no longer published`);
      continue;
    }
    const shift = Math.abs(b - a) / a;
    if (shift > t.maxMedianShift) {
      problems.push(`${slug}: national median moved from $${a.toLocaleString('en-US')} to $${b.toLocaleString('en-US')} (${((b - a) / a * 100).toFixed(1)}%, limit ${(t.maxMedianShift * 100).toFixed(0)}%)`);
    }
  }
  return problems;
}

/** An import batch as the sanity-diff refusal needs it (build/import/batches.ts). */
export interface UndoneBatch {
  id: number;
  file_name: string;
  status: string;
  undone_at: string | null;
  reports_removed: number | null;
}

/**
 * The likely cause of a refused build, when there is one: the batches undone after the current build was
 * made (`since`, its created_at), which took their reports out of the next build. '' when there are none.
 */
export function undoneSince(batches: readonly UndoneBatch[], since: string): string {
  const undone = batches.filter((b) => b.status === 'undone' && b.undone_at !== null && b.undone_at > since);
  if (undone.length === 0) return '';
  const one = (b: UndoneBatch) => `batch ${b.id} (${b.file_name}, ${(b.reports_removed ?? 0).toLocaleString('en-US')} reports) was undone at ${b.undone_at}`;
  return `likely cause: ${undone.map(one).join('; ')}, after that build was made (physpay import list)`;
}
