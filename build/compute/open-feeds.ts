/**
 * Document shaping of every open feed (B), as pure functions of the Dataset and the build options.
 * The tool server (C) returns these same documents.
 */
import { PRACTICE_SETTINGS } from '../contract/vocab.ts';
import {
  LICENSE, LICENSE_URL, RANKING_MIN_N, feedPaths, pagePaths,
  type FeedKind, type InstitutionFeed, type InstitutionsFeed, type OpenSummary, type ResidencyLevelFeed, type SpecialtiesFeed, type SpecialtyFeed,
  type SpecialtyStateFeed, type StateFeed, type StateInstitutionsFeed, type StatesFeed, type WrvuFeed,
} from '../contract/open-feeds.ts';
import { dayToIso, type Dataset, type StateRow } from './dataset.ts';
import { releaseDate, releaseFilePath } from '../contract/release-id.ts';
import { NO_VALUES, groupBy, openCell, range, ratesOf, totalsOf, type OpenCellResult } from './cells.ts';
import { byYearRows, yearSpan } from './by-year.ts';
import { DEFAULT_HEADLINE_YEARS, basisSentence, headlineBasis, openPopulations, type HeadlineBasis, type OpenPopulations } from './headline.ts';
import { rankHighestFirst } from './ranking.ts';
import { levelRows, maxLevel } from './residency-levels.ts';
import { offerFigures } from './offer-figures.ts';
import { FLOORS, roundMoney, roundPct } from './stats.ts';


export interface FeedOptions {
  /** e.g. https://physpay.example (no trailing slash) */
  baseUrl: string;
  publisher: string;
  /** The date written into each file's attribution line ("accessed ..."); the server replaces it with the day it serves. */
  accessDate: string;
  /** the release this build publishes (release-id.ts); a feed the build does not change keeps its earlier file and release */
  release: string;
}

export interface FeedFile {
  kind: FeedKind;
  path: string;
  doc: Record<string, unknown>;
}

export const METHODOLOGY_NOTE = 'self-reported';

/**
 * The as_of of a document that shows no published figure (a withheld cell outside any published cell, an
 * index of withheld cells, an empty dataset): a fixed date, so it moves with no report.
 */
export const NO_FIGURES_AS_OF = '1970-01-01';

/**
 * The spec's citation shape, naming the release the document last changed in and its per-release URL (which
 * keeps serving these figures) when it has one: `<publisher>, "<title>," <citation_url> (data as of <as_of>;
 * release <release>, <release_url>; accessed <date>). Licensed under CC BY 4.0.`
 */
export function attributionLine(publisher: string, title: string, citationUrl: string, asOf: string, accessDate: string, release?: { id: string; url: string }): string {
  const rel = release ? `release ${release.id}, ${release.url}; ` : '';
  return `${publisher}, "${title}," ${citationUrl} (data as of ${asOf}; ${rel}accessed ${accessDate}). Licensed under CC BY 4.0.`;
}

function withheldNotice(floor: number, what: string): string {
  return `Figures withheld: fewer than ${floor} approved reports remain for ${what} after outlier exclusion. Published figures need at least ${floor} reports (${FLOORS.tails} for the 10th and 90th percentiles) and are never estimated.`;
}

const stateRef = (s: StateRow) => ({ code: s.code, slug: s.slug, name: s.name, region: s.region });

/** The year of the newest submission of all approved reports (the year still being reported); null when there is none. */
export function newestSubmissionYear(ds: Dataset): number | null {
  let max = -Infinity;
  for (const d of ds.reports.submittedDay) if (d > max) max = d;
  return Number.isFinite(max) ? Number(dayToIso(max).slice(0, 4)) : null;
}

/** The basis of a dataset's headline figures with `years` complete years (the default build's when omitted). */
export function basisOf(ds: Dataset, years = DEFAULT_HEADLINE_YEARS): HeadlineBasis {
  return headlineBasis(newestSubmissionYear(ds) ?? Number(NO_FIGURES_AS_OF.slice(0, 4)), years);
}

/** The `basis` field of a document with headline figures. */
export function basisField(b: HeadlineBasis) {
  return { compensation_years: { from: b.firstYear, to: b.lastYear }, full_time_equivalent: true as const, hours_per_week: 40 as const, description: basisSentence(b) };
}

/**
 * Every open feed of `raw` (all approved reports, as read). The figures are those of its open populations
 * (headline.ts): the headline years on a full-time basis, and every year for the by_year rows.
 */
export function buildOpenFeeds(raw: Dataset, opts: FeedOptions, pop: OpenPopulations = openPopulations(raw, basisOf(raw))): FeedFile[] {
  const { ds, facts } = pop.headline;
  const url = (p: string) => `${opts.baseUrl}${p.startsWith('/') ? p : `/${p}`}`;
  const suffix = ds.synthetic ? ' (synthetic demo data)' : '';
  const basis = basisField(pop.basis);
  /**
   * as_of (README: The build, "What a nightly build rewrites"): a published cell's is the newest submission
   * among the reports its figures use. A withheld (or empty) cell's never looks at its own reports: it is
   * `parent`, the as_of of the published cell whose figures the document shows (a specialty's national cell,
   * for its states and its $/wRVU), or NO_FIGURES_AS_OF when there is none. So a withheld cell's file changes
   * only with published figures, and says nothing about when (or whether) its reports arrived.
   */
  const asOfOf = (cell: OpenCellResult, parent = NO_FIGURES_AS_OF) => (cell.summary.withheld || cell.newestDay === null ? parent : dayToIso(cell.newestDay));
  /** as_of of an index: the newest as_of among its published cells */
  const newestPublished = (cells: OpenCellResult[]) => {
    let max: number | null = null;
    for (const c of cells) if (!c.summary.withheld && c.newestDay !== null && (max === null || c.newestDay > max)) max = c.newestDay;
    return max === null ? NO_FIGURES_AS_OF : dayToIso(max);
  };
  const common = (title: string, feedPath: string, citationPath: string, n: number | null, asOf: string, notice?: string) => ({
    n,
    as_of: asOf,
    citation_url: url(citationPath),
    methodology_url: url(pagePaths.methodology()),
    license: LICENSE,
    license_url: LICENSE_URL,
    attribution: attributionLine(opts.publisher, `${title}${suffix}`, url(citationPath), asOf, opts.accessDate, { id: opts.release, url: url(releaseFilePath(opts.release, feedPath)) }),
    ...(notice ? { notice } : {}),
    title: `${title}${suffix}`,
    publisher: opts.publisher,
    feed_url: url(feedPath),
    synthetic: ds.synthetic,
    release: opts.release,
    modified: releaseDate(opts.release),
    release_url: url(releaseFilePath(opts.release, feedPath)),
  });
  /** the common fields of a document with headline figures: with their basis */
  const headlineCommon = (...args: Parameters<typeof common>) => ({ ...common(...args), basis });

  const files: FeedFile[] = [];
  const R = ds.reports;
  const ranking = { min_n: RANKING_MIN_N, order: 'median, highest first', ties: 'share a rank (1, 2, 2, 4)' } as const;
  // by_year: every compensation year of the full-time-basis reports; the newest submission's year is partial
  const years = yearSpan(pop.fte.ds, pop.basis.partialFrom);

  // ---- per specialty: national cell, per-state cells, practice settings, wRVU
  const national: OpenCellResult[] = [];
  const byState: Map<number, OpenCellResult>[] = [];
  ds.specialties.forEach((sp, si) => {
    const { start, end } = ds.specialtyRange[si]!;
    const all = range(start, end);
    national[si] = openCell(totalsOf(ds, facts, all), FLOORS.national);
    const states = new Map<number, OpenCellResult>();
    for (const [st, idx] of groupBy(all, (i) => R.state[i]!)) {
      states.set(st, openCell(totalsOf(ds, facts, idx), FLOORS.specialtyInState));
    }
    byState[si] = states;
  });

  ds.specialties.forEach((sp, si) => {
    const { start, end } = ds.specialtyRange[si]!;
    const all = range(start, end);
    const nat = national[si]!;
    const spRef = { slug: sp.slug, name: sp.name };
    const published = [...byState[si]!.entries()].filter(([, c]) => !c.summary.withheld);
    const topStates = rankHighestFirst(
      published.filter(([, c]) => c.summary.n! >= RANKING_MIN_N),
      ([, c]) => c.summary.median!,
      ([a], [b]) => ds.states[a]!.code.localeCompare(ds.states[b]!.code),
    )
      .slice(0, 10)
      .map(({ rank, item: [st, c] }) => ({
        rank,
        state: stateRef(ds.states[st]!),
        n: c.summary.n!,
        median: c.summary.median!,
        rounded: c.summary.rounded,
        feed_url: url(feedPaths.specialtyState(sp.slug, ds.states[st]!.slug)),
        citation_url: url(pagePaths.specialtyState(sp.slug, ds.states[st]!.slug)),
      }));
    const settings = groupBy(all, (i) => R.setting[i]!);
    const practiceSettings = PRACTICE_SETTINGS.map((ps, k) => {
      const idx = settings.get(k) ?? [];
      return { practice_setting: ps, ...openCell(totalsOf(ds, facts, idx), FLOORS.national).summary };
    });
    const wr = openCell(ratesOf(ds, facts, all), FLOORS.national, 'rate');
    const withheld = nat.summary.withheld;
    const natAsOf = asOfOf(nat);
    const specialtyDoc: SpecialtyFeed = {
      ...headlineCommon(`${sp.name} Salary Data`, feedPaths.specialty(sp.slug), pagePaths.specialty(sp.slug), nat.summary.n, natAsOf,
        withheld ? withheldNotice(FLOORS.national, `${sp.name} nationally`) : undefined),
      ...nat.summary,
      specialty: spRef,
      scope: 'national',
      states_with_data: published.length,
      states_with_data_min_n: FLOORS.specialtyInState as 3,
      top_states: withheld ? [] : topStates,
      ranking,
      practice_settings: withheld ? PRACTICE_SETTINGS.map((ps) => ({ practice_setting: ps, ...openCell(NO_VALUES, 1).summary })) : practiceSettings,
      wrvu: { ...(withheld ? openCell(NO_VALUES, 1).summary : wr.summary), feed_url: url(feedPaths.wrvu(sp.slug)) } as SpecialtyFeed['wrvu'],
      by_year: byYearRows(pop.fte.ds, pop.fte.facts, withheld ? [] : range(pop.fte.ds.specialtyRange[si]!.start, pop.fte.ds.specialtyRange[si]!.end), years),
      // the headline's reports (same years, outliers left out); the amounts as reported
      components: offerFigures(ds, withheld ? [] : all.filter((i) => facts.openTotal[i] === 1)),
    };
    files.push({ kind: 'specialty', path: feedPaths.specialty(sp.slug), doc: specialtyDoc });

    const wrvuDoc: WrvuFeed = {
      ...headlineCommon(`${sp.name} Compensation per wRVU Data`, feedPaths.wrvu(sp.slug), pagePaths.specialty(sp.slug), wr.summary.n, asOfOf(wr, natAsOf),
        wr.summary.withheld ? withheldNotice(FLOORS.national, `${sp.name} compensation per wRVU`) : undefined),
      ...wr.summary,
      specialty: spRef,
      scope: 'national',
      unit: 'USD per wRVU',
    } as WrvuFeed;
    files.push({ kind: 'wrvu', path: feedPaths.wrvu(sp.slug), doc: wrvuDoc });

    ds.states.forEach((st, sti) => {
      const cell = byState[si]!.get(sti) ?? openCell(NO_VALUES, FLOORS.specialtyInState);
      const natMedian = nat.summary.median;
      const doc: SpecialtyStateFeed = {
        ...headlineCommon(`${sp.name} Salary Data, ${st.name}`, feedPaths.specialtyState(sp.slug, st.slug), pagePaths.specialtyState(sp.slug, st.slug),
          cell.summary.n, asOfOf(cell, natAsOf),
          cell.summary.withheld ? withheldNotice(FLOORS.specialtyInState, `${sp.name} in ${st.name}`) : undefined),
        ...cell.summary,
        specialty: spRef,
        state: stateRef(st),
        scope: 'state',
        national_median: natMedian,
        difference_from_national_pct:
          cell.summary.median !== null && natMedian !== null ? roundPct(((cell.summary.median - natMedian) / natMedian) * 100) : null,
      };
      files.push({ kind: 'specialtyState', path: feedPaths.specialtyState(sp.slug, st.slug), doc });
    });
  });

  // ---- specialties.json
  {
    const entries = ds.specialties.map((sp, si) => {
      const s = national[si]!.summary;
      return {
        slug: sp.slug, name: sp.name, n: s.n, median: s.median, p25: s.p25, p75: s.p75, rounded: s.rounded, withheld: s.withheld,
        feed_url: url(feedPaths.specialty(sp.slug)), citation_url: url(pagePaths.specialty(sp.slug)),
      };
    });
    const withheld = entries.filter((e) => e.withheld).map((e) => e.name); // names, as readers know them (not slugs)
    const n = entries.reduce((a, e) => a + (e.n ?? 0), 0);
    const doc: SpecialtiesFeed = {
      ...headlineCommon('Physician Salary Data by Specialty', feedPaths.specialties(), pagePaths.specialtiesIndex(), n, newestPublished(national),
        withheld.length ? `Figures withheld for ${withheld.length} specialt${withheld.length === 1 ? 'y' : 'ies'} (${withheld.join(', ')}): fewer than ${FLOORS.national} approved reports after outlier exclusion. Withheld figures are null, never estimated.` : undefined),
      count: entries.length,
      specialties: entries,
    };
    files.push({ kind: 'specialties', path: feedPaths.specialties(), doc });
  }

  // ---- states: all specialties in one state
  const stateCells = groupBy(range(0, R.count), (i) => R.state[i]!);
  const stateResults = ds.states.map((st, sti) => {
    const idx = [...(stateCells.get(sti) ?? [])].sort((a, b) => R.total[a]! - R.total[b]! || a - b);
    return openCell(totalsOf(ds, facts, idx), FLOORS.state);
  });
  const colBasis = 'cost-of-living index, US average = 100';
  const colOf = (st: StateRow) => ({ index: st.col_index, source: st.col_source, year: st.col_year, basis: colBasis });
  ds.states.forEach((st, sti) => {
    const cell = stateResults[sti]!;
    const withData = ds.specialties
      .map((sp, si) => ({ sp, si, c: byState[si]!.get(sti) }))
      .filter((x): x is { sp: typeof x.sp; si: number; c: OpenCellResult } => x.c !== undefined && !x.c.summary.withheld);
    const top = rankHighestFirst(
      withData.filter((x) => x.c.summary.n! >= RANKING_MIN_N),
      (x) => x.c.summary.median!,
      (a, b) => a.sp.slug.localeCompare(b.sp.slug),
    );
    const doc: StateFeed = {
      ...headlineCommon(`${st.name} Physician Salary Data`, feedPaths.state(st.slug), pagePaths.state(st.slug), cell.summary.n, asOfOf(cell),
        cell.summary.withheld ? withheldNotice(FLOORS.state, st.name) : undefined),
      ...cell.summary,
      state: stateRef(st),
      scope: 'state',
      cost_of_living: colOf(st),
      cost_of_living_index: st.col_index,
      col_adjusted_median: cell.raw && st.col_index ? roundMoney(cell.raw.median / (st.col_index / 100), cell.summary.n!) : null,
      ranking,
      top_specialties: top.slice(0, 10).map(({ rank, item: { sp, si, c } }) => {
        const natMedian = national[si]!.summary.median;
        return {
          rank,
          specialty: { slug: sp.slug, name: sp.name },
          n: c.summary.n!,
          median: c.summary.median!,
          rounded: c.summary.rounded,
          national_median: natMedian,
          difference_from_national_pct: natMedian !== null ? roundPct(((c.summary.median! - natMedian) / natMedian) * 100) : null,
          feed_url: url(feedPaths.specialtyState(sp.slug, st.slug)),
          citation_url: url(pagePaths.specialtyState(sp.slug, st.slug)),
        };
      }),
      specialties_with_data: withData.length,
    };
    files.push({ kind: 'state', path: feedPaths.state(st.slug), doc });
  });
  {
    const entries = ds.states.map((st, sti) => {
      const s: OpenSummary = stateResults[sti]!.summary;
      return {
        state: stateRef(st), n: s.n, median: s.median, rounded: s.rounded, withheld: s.withheld, cost_of_living_index: st.col_index, cost_of_living: colOf(st),
        feed_url: url(feedPaths.state(st.slug)), citation_url: url(pagePaths.state(st.slug)),
      };
    });
    const withheld = entries.filter((e) => e.withheld).map((e) => e.state.name);
    const doc: StatesFeed = {
      ...headlineCommon('Physician Salary Data by State', feedPaths.states(), pagePaths.statesIndex(), entries.reduce((a, e) => a + (e.n ?? 0), 0), newestPublished(stateResults),
        withheld.length ? `Figures withheld for ${withheld.join(', ')}: fewer than ${FLOORS.state} approved reports after outlier exclusion. Withheld figures are null, never estimated.` : undefined),
      count: entries.length,
      states: entries,
    };
    files.push({ kind: 'states', path: feedPaths.states(), doc });
  }

  // ---- residency: published pay scales (not reports: n is null, no floors)
  const stateByCode = new Map(ds.states.map((s) => [s.code, s]));
  // PGY-1 is adjusted and ranked like every other level (residency-levels.ts): among scales of the same
  // academic year only (a 2025-2026 scale is not compared with a 2026-2027 one); ties share a position.
  const pgy1 = levelRows(ds.institutions, ds.states, 1);
  const adjusted = ds.institutions.map(() => null as number | null);
  const rankOf = new Map<number, { position: number; of: number }>();
  const stateRankOf = new Map<number, { position: number; of: number }>();
  for (const r of pgy1) {
    adjusted[r.k] = r.col_adjusted;
    if (r.rank) rankOf.set(r.k, r.rank);
    if (r.state_rank) stateRankOf.set(r.k, r.state_rank);
  }
  const instRef = (k: number) => {
    const inst = ds.institutions[k]!;
    return { slug: inst.slug, name: inst.name, city: inst.city, state: stateRef(stateByCode.get(inst.state)!) };
  };
  const rankBasis = 'PGY-1 salary divided by the state cost-of-living index / 100, among scales of the same academic year; 1 = highest';
  ds.institutions.forEach((inst, k) => {
    const st = stateByCode.get(inst.state)!;
    const r = rankOf.get(k);
    const sr = stateRankOf.get(k);
    const doc: InstitutionFeed = {
      ...common(`${inst.name} Resident Salary Data`, feedPaths.institution(inst.slug), pagePaths.institution(inst.slug), null, inst.checked_at),
      institution: instRef(k),
      academic_year: inst.academic_year,
      source_url: inst.source_url,
      pgy_scale: inst.pay.map((salary, i) => ({ pgy: i + 1, salary })),
      pgy1_salary: inst.pay[0]!,
      cost_of_living: colOf(st),
      cost_of_living_index: st.col_index,
      pgy1_col_adjusted: adjusted[k]!,
      rank_position: r?.position ?? null,
      rank_of: r?.of ?? null,
      rank: r ? { ...r, basis: rankBasis, academic_year: inst.academic_year } : null,
      state_rank: sr ? { ...sr, academic_year: inst.academic_year } : null,
    };
    files.push({ kind: 'institution', path: feedPaths.institution(inst.slug), doc });
  });
  {
    const newest = ds.institutions.reduce((a, i) => (i.checked_at > a ? i.checked_at : a), '');
    const doc: InstitutionsFeed = {
      ...common('Resident Salary Data by Teaching Hospital', feedPaths.institutions(), pagePaths.institutionsIndex(), null, newest || NO_FIGURES_AS_OF),
      count: ds.institutions.length,
      institutions: ds.institutions.map((inst, k) => ({
        institution: instRef(k),
        academic_year: inst.academic_year,
        pgy1_salary: inst.pay[0]!,
        pgy1_col_adjusted: adjusted[k]!,
        rank: rankOf.get(k)?.position ?? null,
        rank_position: rankOf.get(k)?.position ?? null,
        rank_of: rankOf.get(k)?.of ?? null,
        cost_of_living_index: stateByCode.get(inst.state)!.col_index,
        levels: inst.pay.length,
        feed_url: url(feedPaths.institution(inst.slug)),
        citation_url: url(pagePaths.institution(inst.slug)),
      })),
    };
    files.push({ kind: 'institutions', path: feedPaths.institutions(), doc });
  }
  // a state's teaching hospitals (the tool server's get_resident_pay with a state; the state page's section)
  ds.states.forEach((st) => {
    const ks = ds.institutions.map((_, k) => k).filter((k) => ds.institutions[k]!.state === st.code)
      .sort((a, b) => {
        const ia = ds.institutions[a]!;
        const ib = ds.institutions[b]!;
        return ib.academic_year.localeCompare(ia.academic_year)
          || (stateRankOf.get(a)?.position ?? Infinity) - (stateRankOf.get(b)?.position ?? Infinity)
          || ia.slug.localeCompare(ib.slug);
      });
    if (ks.length === 0) return;
    const newest = ks.reduce((a, k) => (ds.institutions[k]!.checked_at > a ? ds.institutions[k]!.checked_at : a), '');
    const doc: StateInstitutionsFeed = {
      ...common(`${st.name} Resident Salary Data by Teaching Hospital`, feedPaths.stateInstitutions(st.slug), pagePaths.stateInstitutions(st.slug), null, newest),
      state: stateRef(st),
      count: ks.length,
      institutions: ks.map((k) => {
        const inst = ds.institutions[k]!;
        const sr = stateRankOf.get(k);
        return {
          institution: instRef(k),
          academic_year: inst.academic_year,
          pgy1_salary: inst.pay[0]!,
          pgy1_col_adjusted: adjusted[k]!,
          rank: rankOf.get(k)?.position ?? null,
          rank_position: rankOf.get(k)?.position ?? null,
          rank_of: rankOf.get(k)?.of ?? null,
          cost_of_living_index: st.col_index,
          state_rank: sr?.position ?? null,
          state_rank_of: sr?.of ?? null,
          levels: inst.pay.length,
          feed_url: url(feedPaths.institution(inst.slug)),
          citation_url: url(pagePaths.institution(inst.slug)),
        };
      }),
    };
    files.push({ kind: 'stateInstitutions', path: feedPaths.stateInstitutions(st.slug), doc });
  });
  // each PGY level from 2 across teaching hospitals (residency-levels.ts), adjusted and ranked like PGY-1
  // (whose list is residency/institutions.json)
  const top = maxLevel(ds.institutions);
  for (let pgy = 2; pgy <= top; pgy++) {
    const rows = levelRows(ds.institutions, ds.states, pgy);
    const newest = rows.reduce((a, r) => (ds.institutions[r.k]!.checked_at > a ? ds.institutions[r.k]!.checked_at : a), '');
    const doc: ResidencyLevelFeed = {
      ...common(`PGY-${pgy} Resident Salary Data by Teaching Hospital`, feedPaths.residencyLevel(pgy), pagePaths.residencyLevel(pgy), null, newest || NO_FIGURES_AS_OF),
      pgy,
      max_pgy: top,
      count: rows.length,
      without_level: ds.institutions.length - rows.length,
      rank_basis: `PGY-${pgy} salary divided by the state cost-of-living index / 100, among scales of the same academic year with a PGY-${pgy} level; 1 = highest`,
      institutions: rows.map((r) => {
        const inst = ds.institutions[r.k]!;
        return {
          institution: instRef(r.k),
          academic_year: inst.academic_year,
          salary: r.salary,
          col_adjusted: r.col_adjusted,
          cost_of_living_index: stateByCode.get(inst.state)!.col_index,
          rank_position: r.rank?.position ?? null,
          rank_of: r.rank?.of ?? null,
          state_rank: r.state_rank?.position ?? null,
          state_rank_of: r.state_rank?.of ?? null,
          levels: inst.pay.length,
          feed_url: url(feedPaths.institution(inst.slug)),
          citation_url: url(pagePaths.institution(inst.slug)),
        };
      }),
    };
    files.push({ kind: 'residencyLevel', path: feedPaths.residencyLevel(pgy), doc });
  }
  return files;
}
