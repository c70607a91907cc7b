/**
 * How far the keyed API's national figures (winsorized, every report) are from the open data's (outliers
 * left out), per specialty: the table on the methodology page, so a user comparing the two products is
 * not surprised. Pure: from the finished open feeds and the keyed national cells.
 */
import type { SpecialtyFeed } from '../contract/open-feeds.ts';
import type { FeedFile } from './open-feeds.ts';
import { roundPct } from './stats.ts';

export interface NationalFigures {
  n: number;
  median: number | null;
  mean: number | null;
}

export interface KeyedOpenRow {
  slug: string;
  name: string;
  open: NationalFigures;
  keyed: NationalFigures;
  /** (keyed - open) / open x 100, one decimal; null when either is withheld */
  median_diff_pct: number | null;
  mean_diff_pct: number | null;
}

const pct = (keyed: number | null, open: number | null) => (keyed === null || open === null || open === 0 ? null : roundPct(((keyed - open) / open) * 100));

export function keyedVsOpen(feeds: FeedFile[], keyed: Map<string, NationalFigures>): KeyedOpenRow[] {
  return feeds
    .filter((f) => f.kind === 'specialty')
    .map((f) => {
      const d = f.doc as SpecialtyFeed;
      const k = keyed.get(d.specialty.slug) ?? { n: 0, median: null, mean: null };
      const open = { n: d.n ?? 0, median: d.median, mean: d.mean };
      return { slug: d.specialty.slug, name: d.specialty.name, open, keyed: k, median_diff_pct: pct(k.median, open.median), mean_diff_pct: pct(k.mean, open.mean) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
