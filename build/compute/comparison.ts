/**
 * Two specialties side by side (pure): the comparison document of compare/{a}/{b}[/states/{state}].json,
 * shaped from the two published documents of one build. Too many pairs exist to write them all, so the
 * server derives this document on request from files the build did write; the figures are theirs, and
 * the only new ones (the difference of the medians) are computed from published medians only.
 */
import { releaseDate } from '../contract/release-id.ts';
import {
  LICENSE, LICENSE_URL, feedPaths, pagePaths,
  type ComparisonFeed, type SpecialtyPayDocument,
} from '../contract/open-feeds.ts';
import { attributionLine } from './open-feeds.ts';
import { parseRelease } from '../contract/release-id.ts';
import { roundPct } from './stats.ts';

export interface ComparisonContext {
  baseUrl: string;
  publisher: string;
  /** the access date of the attribution line */
  accessDate: string;
}

export function comparisonFigures(a: SpecialtyPayDocument, b: SpecialtyPayDocument): ComparisonFeed['comparison'] {
  const diff = a.median !== null && b.median !== null ? a.median - b.median : null;
  return {
    median_difference: diff,
    median_difference_pct: diff !== null && b.median ? roundPct((diff / b.median) * 100) : null,
    higher: diff === null || diff === 0 ? null : diff > 0 ? a.specialty.slug : b.specialty.slug,
  };
}

/** The later of two releases ("2026-11-24.2" after "2026-11-24", ".10" after ".9"). */
export function laterRelease(a: string, b: string): string {
  const [x, y] = [parseRelease(a), parseRelease(b)];
  return x.date > y.date || (x.date === y.date && x.seq >= y.seq) ? a : b;
}

export function comparisonDocument(a: SpecialtyPayDocument, b: SpecialtyPayDocument, ctx: ComparisonContext): ComparisonFeed {
  if (a.specialty.slug === b.specialty.slug) throw new Error('a comparison needs two different specialties');
  const state = a.scope === 'state' && 'state' in a ? a.state : null;
  if ((b.scope === 'state') !== (state !== null) || (state && 'state' in b && b.state.slug !== state.slug)) {
    throw new Error('a comparison needs two documents of the same scope');
  }
  const url = (p: string) => `${ctx.baseUrl}${p.startsWith('/') ? p : `/${p}`}`;
  const suffix = a.synthetic ? ' (synthetic demo data)' : '';
  const title = `${a.specialty.name} vs ${b.specialty.name} Salary Comparison${state ? ` in ${state.name}` : ''}${suffix}`;
  const citation = url(pagePaths.comparison(a.specialty.slug, b.specialty.slug, state?.slug));
  const asOf = a.as_of > b.as_of ? a.as_of : b.as_of;
  const withheld = [a, b].filter((d) => d.withheld).map((d) => d.specialty.name);
  const notice = withheld.length
    ? `Figures withheld for ${withheld.join(' and ')}${state ? ` in ${state.name}` : ''} (too few reports); no difference is computed from withheld figures.`
    : undefined;
  return {
    n: a.n !== null && b.n !== null ? a.n + b.n : null,
    as_of: asOf,
    citation_url: citation,
    methodology_url: url(pagePaths.methodology()),
    license: LICENSE,
    license_url: LICENSE_URL,
    attribution: attributionLine(ctx.publisher, title, citation, asOf, ctx.accessDate),
    ...(notice ? { notice } : {}),
    title,
    publisher: ctx.publisher,
    feed_url: url(feedPaths.comparison(a.specialty.slug, b.specialty.slug, state?.slug)),
    synthetic: a.synthetic,
    release: laterRelease(a.release, b.release),
    modified: releaseDate(laterRelease(a.release, b.release)),
    basis: a.basis,
    scope: state ? 'state' : 'national',
    state,
    specialty_a: a,
    specialty_b: b,
    comparison: comparisonFigures(a, b),
  };
}
