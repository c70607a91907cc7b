/**
 * `physpay builds diff A B`: what changed from build A to build B, from their manifests and build.json (pure).
 * Files: added, removed, and changed in their figures (the content hash with the access date and release
 * label masked, so a file that only names another release or day is not "changed"). Figures: reports used,
 * and each specialty's national median and n (build.json), largest moves first.
 */
import type { BuildSummary, Manifest } from '../contract/manifest.ts';

export interface BuildSide {
  id: string;
  summary: BuildSummary;
  files: Manifest['files'];
}

export interface FigureMove {
  specialty: string;
  median_before: number | null;
  median_after: number | null;
  /** (after - before) / before, null when either is missing */
  change: number | null;
  n_before: number | null;
  n_after: number | null;
}

export interface BuildsDiff {
  from: string;
  to: string;
  reports_used: { before: number; after: number };
  files: { added: string[]; removed: string[]; changed: string[]; unchanged: number };
  /** specialties whose national median or n differ, largest relative move first */
  figures: FigureMove[];
}

const figuresHash = (f: Manifest['files'][string]) => f.figures_hash ?? f.content_hash;

export function diffBuilds(a: BuildSide, b: BuildSide): BuildsDiff {
  const added: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  let unchanged = 0;
  for (const [path, f] of Object.entries(b.files)) {
    const before = a.files[path];
    if (!before) added.push(path);
    else if (figuresHash(before) !== figuresHash(f)) changed.push(path);
    else unchanged++;
  }
  for (const path of Object.keys(a.files)) if (!(path in b.files)) removed.push(path);
  const slugs = [...new Set([...Object.keys(a.summary.counts), ...Object.keys(b.summary.counts)])];
  const figures: FigureMove[] = [];
  for (const specialty of slugs) {
    const mb = a.summary.medians[specialty] ?? null;
    const ma = b.summary.medians[specialty] ?? null;
    const nb = a.summary.counts[specialty] ?? null;
    const na = b.summary.counts[specialty] ?? null;
    if (mb === ma && nb === na) continue;
    figures.push({ specialty, median_before: mb, median_after: ma, change: mb !== null && ma !== null && mb !== 0 ? (ma - mb) / mb : null, n_before: nb, n_after: na });
  }
  const size = (m: FigureMove) => (m.change === null ? Infinity : Math.abs(m.change));
  figures.sort((x, y) => size(y) - size(x) || x.specialty.localeCompare(y.specialty));
  const sorted = (xs: string[]) => xs.sort();
  return {
    from: a.id, to: b.id,
    reports_used: { before: a.summary.reports_used, after: b.summary.reports_used },
    files: { added: sorted(added), removed: sorted(removed), changed: sorted(changed), unchanged },
    figures,
  };
}

const usd = (v: number | null) => (v === null ? 'withheld' : `$${Math.round(v).toLocaleString('en-US')}`);
const pct = (c: number | null) => (c === null ? '' : ` (${c >= 0 ? '+' : ''}${(c * 100).toFixed(1)}%)`);

/** The lines `builds diff` prints: a summary, the moved figures (at most `limit`), the files added and removed (at most `limit` each). */
export function diffLines(d: BuildsDiff, limit = 20): string[] {
  const n = (x: number) => x.toLocaleString('en-US');
  const lines = [
    `${d.from} -> ${d.to}: reports used ${n(d.reports_used.before)} -> ${n(d.reports_used.after)}; files ${n(d.files.added.length)} added, ${n(d.files.removed.length)} removed, ${n(d.files.changed.length)} changed, ${n(d.files.unchanged)} unchanged; ${n(d.figures.length)} specialt${d.figures.length === 1 ? 'y' : 'ies'} with a national median or n that moved`,
  ];
  for (const m of d.figures.slice(0, limit)) lines.push(`  ${m.specialty}: median ${usd(m.median_before)} -> ${usd(m.median_after)}${pct(m.change)}, n ${m.n_before ?? '-'} -> ${m.n_after ?? '-'}`);
  if (d.figures.length > limit) lines.push(`  ... and ${n(d.figures.length - limit)} more (--json lists all)`);
  for (const [label, list] of [['added', d.files.added], ['removed', d.files.removed]] as const) {
    for (const p of list.slice(0, limit)) lines.push(`  ${label} ${p}`);
    if (list.length > limit) lines.push(`  ... and ${n(list.length - limit)} more ${label} (--json lists all)`);
  }
  return lines;
}
