/**
 * The whole offer in the keyed API (build/compute/keyed-offer.ts through keyedCell), on hand-made per-report
 * columns: floors (no figure from fewer than 5 reports, no count below 5), perturbed counts in the keyed classes,
 * shares from the perturbed counts with a count below 5 as 2.5, quartiles and medians among the reports that have
 * the item (whole dollars, $/wRVU in cents, halves, whole miles), the packed form in the artifact and its unpacking,
 * the per-report artifact's offer columns, and the same figures as the open data's components section
 * (offer-figures.ts) for the same reports where the two interfaces round alike.
 *
 * Counts and shares are written out from their definition (README: Disclosure control, counts); quartile grids
 * come from published.ts (tested on its own in disclosure.test.ts) called with the subset, draw column and pay flag
 * each figure must use, so what is checked here is which reports, which column, which rounding.
 */
import { describe, expect, it } from 'vitest';
import { keyedCell, keyedColumnsFromArtifact, keyedReportsArtifact, uint32ToBase64 } from '../../build/compute/keyed.ts';
import { keyedOfferPacked, unpackKeyedOffer } from '../../build/compute/keyed-offer.ts';
import { offerFigures } from '../../build/compute/offer-figures.ts';
import { offerGrid } from '../../build/compute/offer-core.ts';
import { createDraws, COLUMN, SLOT, type CellKey, type Column } from '../../build/compute/disclosure.ts';
import { isoToDay, type Dataset } from '../../build/compute/dataset.ts';
import { KeyedCell, KeyedReportsArtifact, type BlsInfo } from '../../build/contract/keyed-artifacts.ts';
import { KeyedOfferComponents } from '../../build/contract/keyed-api.ts';
import { COMPENSATION_MODELS, OFFER_FIGURE_COLUMNS } from '../../build/contract/offer-terms.ts';

const NO_BLS: BlsInfo = { available: false, soc_code: null, soc_title: null, soc_match: 'exact', median: null, year: null, top_coded: false };
const DRAW_KEY = Buffer.alloc(32, 0x3c);
const draws = createDraws(DRAW_KEY);
const N = 60;
const lanes = {
  lo: Uint32Array.from({ length: N }, (_, i) => Math.imul(i + 3, 0x9e3779b1) >>> 0),
  hi: Uint32Array.from({ length: N }, (_, i) => Math.imul(i + 17, 0x85ebca6b) >>> 0),
};
const keyOf = (idx: number[]): CellKey => ({ lo: idx.reduce((a, i) => a + lanes.lo[i]!, 0) % 2 ** 32, hi: idx.reduce((a, i) => a + lanes.hi[i]!, 0) % 2 ** 32 });
/** A keyed count: null below 5; else n + round(4u), u the count draw of exactly those reports, kept in [5, 14] or 15 and up. */
function pub(idx: number[]): number | null {
  const n = idx.length;
  if (n < 5) return null;
  const e = Math.round(4 * draws.draw(keyOf(idx), COLUMN.total, SLOT.count));
  return n < 15 ? Math.min(14, Math.max(5, n + e)) : Math.max(15, n + e);
}
/** Percent to one decimal (halves away from zero) of `part` among `parts`, each count as published or 2.5 below 5. */
function share(part: number[], parts: number[][]): number | null {
  if (parts.reduce((a, p) => a + p.length, 0) < 5) return null;
  const c = (p: number[]) => pub(p) ?? 2.5;
  const total = parts.reduce((a, p) => a + c(p), 0);
  const x = ((100 * c(part)) / total) * 10;
  return (x < 0 ? -Math.round(-x) : Math.round(x)) / 10;
}
const range = (n: number, from = 0) => Array.from({ length: n }, (_, k) => from + k);
const whole = Math.round;
const halfOf = (v: number) => Math.round(v * 2) / 2;
/** The published grid of `col` over the reports `idx` (sorted values; the figure's own subset, column and pay flag; the whole offer's small-cell method). */
const grid = (col: (number | null)[], idx: number[], column: Column, pay: boolean) =>
  offerGrid(Float64Array.from(idx.map((i) => col[i]!)).sort(), { draws, key: keyOf(idx), column, pay });

// ------------------------------------------------------------------ 60 reports and their whole offer (null = not answered)

const col = (f: (i: number) => number | null) => range(N).map(f);
const O = {
  // 40 answered: 10 none, 30 with
  call_pay: col((i) => (i >= 40 ? null : i % 4 === 0 ? 0 : 10_000 + 517 * i)),
  // 6 answered: 3 with, 3 none (counts below 5 on both sides)
  signing_bonus: col((i) => (i >= 6 ? null : i % 2 ? 25_000 + 1_000 * i : 0)),
  // 4 answered: nothing publishable
  retention_bonus: col((i) => (i >= 4 ? null : 10_000)),
  relocation: col(() => null),
  // all answered: 20 with, 40 none
  loan_repayment: col((i) => (i % 3 === 0 ? 50_000 + 3_000 * i : 0)),
  // all answered, all with
  cme_allowance: col((i) => 2_000 + 53 * i),
  pto_weeks: col((i) => (i >= 50 ? null : 3 + (i % 6) * 0.5)),
  // 40 answered, 30 take call
  call_nights_per_month: col((i) => (i >= 40 ? null : i % 4 === 0 ? 0 : 2 + (i % 7))),
  wrvu_conversion_rate: col((i) => (i % 5 === 2 && i < 55 ? 48 + 0.37 * i : null)),
  // 45 answered: 30 with (15 of them give years), 15 none
  non_compete_miles: col((i) => (i >= 45 ? null : i % 3 === 0 ? 0 : 10 + i)),
  non_compete_years: col((i) => (i >= 45 || i % 3 === 0 ? (i < 45 ? 0 : null) : i % 2 ? 1 + (i % 4) * 0.5 : null)),
  // 20 answered: 10 with, 10 none
  partnership_track_years: col((i) => (i >= 20 ? null : i % 2 ? 2 + (i % 3) : 0)),
  // 55 name a model: 11 each
  compensation_model: col((i) => (i < 55 ? i % 5 : -1)),
};

/** The artifact's offer block of the reports `rows` (each column one value per listed report). */
const offerOf = (rows: number[]) => ({
  reports: rows,
  ...Object.fromEntries(OFFER_FIGURE_COLUMNS.map((c) => [c, rows.map((i) => O[c][i]!)])),
  compensation_model: rows.map((i) => O.compensation_model[i]!),
}) as NonNullable<KeyedReportsArtifact['offer']>;

function artifact(overrides: Partial<KeyedReportsArtifact> = {}): KeyedReportsArtifact {
  return {
    slug: 'x', count: N, partial_from: 2030, key_lo: uint32ToBase64(lanes.lo), key_hi: uint32ToBase64(lanes.hi), draw_key: DRAW_KEY.toString('base64'),
    total: range(N).map((i) => 200_000 + 1_000 * i), fte: new Array(N).fill(null), base: new Array(N).fill(null), bonus: new Array(N).fill(null),
    wrvus: new Array(N).fill(null), year: range(N).map((i) => 2022 + (i % 3)), experience_band: new Array(N).fill(-1), setting: new Array(N).fill(-1),
    employment: new Array(N).fill(-1), state: new Array(N).fill(0), day: new Array(N).fill(isoToDay('2024-05-05')),
    offer: offerOf(range(N)),
    ...overrides,
  };
}

const cols = keyedColumnsFromArtifact(KeyedReportsArtifact.parse(artifact()));
const all = range(N);
const which = (xs: (number | null)[], idx: number[], test: (v: number) => boolean) => idx.filter((i) => xs[i] !== null && test(xs[i]!));

/** The components of the reports `idx` as /benchmarks gives them (beside base_salary and bonus). */
const componentsOf = (idx: number[]) => {
  const cell = keyedCell(cols, idx, NO_BLS);
  return unpackKeyedOffer(cell.sections!.offer);
};

describe('keyed whole offer: every figure of 60 reports', () => {
  const c = componentsOf(all);

  it('matches the API contract, and the cell its artifact schema', () => {
    expect(KeyedOfferComponents.parse(c)).toEqual(c);
    expect(KeyedCell.safeParse(keyedCell(cols, all, NO_BLS)).success).toBe(true);
  });

  it('money: answered, share with it, n with it, and quartiles among those with it (whole dollars, pay spread-corrected)', () => {
    const withIt = which(O.call_pay, all, (v) => v > 0);
    const without = which(O.call_pay, all, (v) => v === 0);
    expect([withIt.length, without.length]).toEqual([30, 10]);
    const g = grid(O.call_pay, withIt, COLUMN.call_pay, true);
    expect(c.call_pay).toEqual({
      answered: pub([...withIt, ...without]), share_with_pct: share(withIt, [withIt, without]), n_with: pub(withIt),
      p25: whole(g.p25), p50: whole(g.p50), p75: whole(g.p75),
    });
    // the draws are real: the quartiles are not the exact ones
    expect([c.call_pay.p25, c.call_pay.p50, c.call_pay.p75]).not.toEqual([0.25, 0.5, 0.75].map((p) => {
      const s = withIt.map((i) => O.call_pay[i]!).sort((a, b) => a - b);
      const h = (s.length - 1) * p;
      return whole(s[Math.floor(h)]! + (h - Math.floor(h)) * (s[Math.ceil(h)]! - s[Math.floor(h)]!));
    }));
    // its own draw column: the same reports and values under another column give other quartiles
    const other = grid(O.call_pay, withIt, COLUMN.signing_bonus, true);
    expect([whole(other.p25), whole(other.p50), whole(other.p75)]).not.toEqual([c.call_pay.p25, c.call_pay.p50, c.call_pay.p75]);
    const lw = which(O.loan_repayment, all, (v) => v > 0);
    const lg = grid(O.loan_repayment, lw, COLUMN.loan_repayment, true);
    expect(c.loan_repayment).toEqual({
      answered: pub(all), share_with_pct: share(lw, [lw, which(O.loan_repayment, all, (v) => v === 0)]), n_with: pub(lw),
      p25: whole(lg.p25), p50: whole(lg.p50), p75: whole(lg.p75),
    });
  });

  it('floors: fewer than 5 with it gives a share (small counts as 2.5) but no count and no quartiles; fewer than 5 answering, nothing', () => {
    // 3 with a sign-on bonus and 3 without: each count below 5 enters the share as 2.5, so 50%
    expect(c.signing_bonus).toEqual({ answered: pub(range(6)), share_with_pct: 50, n_with: null, p25: null, p50: null, p75: null });
    expect(c.retention_bonus).toEqual({ answered: null, share_with_pct: null, n_with: null, p25: null, p50: null, p75: null });
    expect(c.relocation).toEqual({ answered: null, share_with_pct: null, n_with: null, p25: null, p50: null, p75: null });
  });

  it('same reports, same count: everyone answered and has CME money, so both counts are the cell\'s own n', () => {
    const cell = keyedCell(cols, all, NO_BLS);
    expect(c.cme_allowance.answered).toBe(cell.n);
    expect(c.cme_allowance.n_with).toBe(cell.n);
    // nobody without it: that count (0) is below 5 and enters the share as 2.5, so no share says "all" (or "none")
    expect(c.cme_allowance.share_with_pct).toBe(share(all, [all, []]));
    expect(c.cme_allowance.share_with_pct).toBeLessThan(100);
  });

  it('weeks off and call nights: quartiles to half units, no spread correction (not pay); nights among those who take call', () => {
    const pto = which(O.pto_weeks, all, () => true);
    const g = grid(O.pto_weeks, pto, COLUMN.pto_weeks, false);
    expect(c.pto_weeks).toEqual({ n: pub(pto), p25: halfOf(g.p25), p50: halfOf(g.p50), p75: halfOf(g.p75) });
    const nights = which(O.call_nights_per_month, all, (v) => v > 0);
    expect(nights).toHaveLength(30);
    const gn = grid(O.call_nights_per_month, nights, COLUMN.call_nights_per_month, false);
    expect(c.call_nights_per_month).toEqual({ n: pub(nights), p25: halfOf(gn.p25), p50: halfOf(gn.p50), p75: halfOf(gn.p75) });
  });

  it('pay models: shares from the perturbed counts, the median conversion rate of each model in cents', () => {
    const byModel = COMPENSATION_MODELS.map((_, k) => which(O.compensation_model, all, (v) => v === k));
    expect(byModel.map((m) => m.length)).toEqual([11, 11, 11, 11, 11]);
    expect(c.compensation_models.answered).toBe(pub(byModel.flat()));
    expect(c.compensation_models.models.map((m) => m.model)).toEqual(COMPENSATION_MODELS.map((m) => m.value));
    c.compensation_models.models.forEach((m, k) => {
      const rated = byModel[k]!.filter((i) => O.wrvu_conversion_rate[i] !== null);
      expect(m.share_pct, m.model).toBe(share(byModel[k]!, byModel));
      const rate = rated.length >= 5 ? Math.round(grid(O.wrvu_conversion_rate, rated, [COLUMN.rate_salary, COLUMN.rate_salary_plus_productivity, COLUMN.rate_production, COLUMN.rate_collections, COLUMN.rate_shift][k] as Column, true).p50 * 100) / 100 : null;
      expect(m.conversion_rate, m.model).toEqual({ n: pub(rated), p50: rate });
    });
    // only production contracts give a rate here (11 of them)
    expect(c.compensation_models.models.filter((m) => m.conversion_rate.p50 !== null).map((m) => m.model)).toEqual(['production']);
    expect(Math.round(c.compensation_models.models[2]!.conversion_rate.p50! * 100)).toBe(c.compensation_models.models[2]!.conversion_rate.p50! * 100);
  });

  it('non-compete and partnership track: shares, counts, medians (whole miles, half years) among those with one', () => {
    const ncWith = which(O.non_compete_miles, all, (v) => v > 0);
    const ncNone = which(O.non_compete_miles, all, (v) => v === 0);
    const ncYears = ncWith.filter((i) => O.non_compete_years[i] !== null);
    expect([ncWith.length, ncNone.length, ncYears.length]).toEqual([30, 15, 15]);
    expect(c.non_compete).toEqual({
      answered: pub([...ncWith, ...ncNone]), share_with_pct: share(ncWith, [ncWith, ncNone]), n_with: pub(ncWith),
      median_miles: whole(grid(O.non_compete_miles, ncWith, COLUMN.non_compete_miles, false).p50),
      median_years: halfOf(grid(O.non_compete_years, ncYears, COLUMN.non_compete_years, false).p50),
    });
    const ptWith = which(O.partnership_track_years, all, (v) => v > 0);
    const ptNone = which(O.partnership_track_years, all, (v) => v === 0);
    expect(c.partnership_track).toEqual({
      answered: pub([...ptWith, ...ptNone]), share_with_pct: share(ptWith, [ptWith, ptNone]), n_with: pub(ptWith),
      median_years: halfOf(grid(O.partnership_track_years, ptWith, COLUMN.partnership_track_years, false).p50),
    });
  });
});

describe('keyed whole offer: small cells', () => {
  it('below 5 reports the cell has no sections at all (no offer)', () => {
    for (const idx of [[0], [0, 1, 2, 3]]) expect(keyedCell(cols, idx, NO_BLS).sections).toBeNull();
  });

  it('5 reports: figures that need 5 of them only where all 5 have it; a count below 5 is never given', () => {
    const five = [1, 2, 3, 5, 6]; // call pay: all with it; CME money: all; loan repayment: 2 with it (3 and 6), 3 none
    const c = componentsOf(five);
    const g = grid(O.call_pay, five, COLUMN.call_pay, true);
    expect(c.call_pay).toEqual({ answered: pub(five), share_with_pct: share(five, [five, []]), n_with: pub(five), p25: whole(g.p25), p50: whole(g.p50), p75: whole(g.p75) });
    // 2 with and 3 without: both below 5, each counted as 2.5
    expect(c.loan_repayment).toEqual({ answered: pub(five), share_with_pct: 50, n_with: null, p25: null, p50: null, p75: null });
    for (const v of Object.values(c)) {
      for (const [k, x] of Object.entries(v)) if ((k === 'answered' || k === 'n_with' || k === 'n') && x !== null) expect(x).toBeGreaterThanOrEqual(5);
    }
  });

  it('a cell where fewer than 5 answered each question stores no offer (null) and unpacks to every figure null', () => {
    // the reports answered nothing (no offer block in their artifact); and 7 reports of the full columns that
    // answered only loan repayment (2 with it), CME money, pay models (1 or 2 each) and weeks off (none)
    const bare = keyedColumnsFromArtifact(artifact({ offer: undefined }));
    const idx = [50, 51, 52, 53, 54, 55, 56];
    const cell = keyedCell(bare, idx, NO_BLS);
    expect(cell.sections!.offer).toBeNull();
    const c = unpackKeyedOffer(cell.sections!.offer);
    expect(KeyedOfferComponents.parse(c)).toEqual(c);
    const values = JSON.stringify(c).match(/:(-?[\d.]+)/g);
    expect(values).toBeNull(); // no number anywhere
    expect(c.compensation_models.models).toHaveLength(5);
    const partial = unpackKeyedOffer(keyedCell(cols, idx, NO_BLS).sections!.offer);
    expect(partial.cme_allowance).toMatchObject({ answered: pub(idx), n_with: pub(idx), share_with_pct: share(idx, [idx, []]) });
    expect(partial.loan_repayment).toMatchObject({ answered: pub(idx), n_with: null, share_with_pct: share([51, 54], [[51, 54], [50, 52, 53, 55, 56]]) });
    expect(partial.call_pay.answered).toBeNull();
  });

  it('the packed form leaves out trailing nulls and all-null groups', () => {
    const packed = keyedOfferPacked(cols, all)!;
    expect(packed).toHaveLength(11);
    expect(packed[2]).toBeNull(); // retention bonus: nothing
    expect(packed[3]).toBeNull(); // relocation: nothing
    expect(packed[1]).toEqual([pub(range(6)), 50]); // sign-on bonus: answered and share only
    expect(unpackKeyedOffer(packed)).toEqual(componentsOf(all));
    expect(unpackKeyedOffer(undefined)).toEqual(unpackKeyedOffer(null));
    // the artifact schema refuses a malformed packed offer
    const cell = keyedCell(cols, all, NO_BLS);
    const withOffer = (offer: unknown) => KeyedCell.safeParse({ ...cell, sections: { ...cell.sections!, offer } }).success;
    expect(withOffer(packed)).toBe(true);
    expect(withOffer(null)).toBe(true);
    expect(withOffer(packed.slice(0, 10))).toBe(false); // a group missing
    expect(withOffer([[1, 2, 3, 4, 5, 6, 7], ...packed.slice(1)])).toBe(false); // a money group of 7 figures
    expect(withOffer([['1'], ...packed.slice(1)])).toBe(false); // not a number
  });
});

describe('the per-report artifact carries the offer columns', () => {
  it('only the reports that answer something, each column one value per listed report; read back exactly', () => {
    const a = keyedReportsArtifact('x', cols);
    KeyedReportsArtifact.parse(a);
    // reports 56..59 answered loan repayment and CME money only; every report answered something here
    expect(a.offer!.reports).toEqual(all);
    const back = keyedColumnsFromArtifact(KeyedReportsArtifact.parse(JSON.parse(JSON.stringify(a))));
    for (const c of OFFER_FIGURE_COLUMNS) expect(Array.from(back.offer[c]), c).toEqual(Array.from(cols.offer[c]));
    expect(Array.from(back.offer.compensation_model)).toEqual(Array.from(cols.offer.compensation_model));
    // a custom year range recomputes from these columns: the same figures as from the build's
    const y2023 = all.filter((i) => 2022 + (i % 3) === 2023);
    expect(keyedCell(back, y2023, NO_BLS)).toEqual(keyedCell(cols, y2023, NO_BLS));
  });

  it('reports that answer nothing are left out; a specialty where nobody answers has no offer key', () => {
    const some = range(N).filter((i) => i % 2 === 0);
    const c = keyedColumnsFromArtifact(KeyedReportsArtifact.parse(artifact({ offer: offerOf(some) })));
    expect(Number.isNaN(c.offer.cme_allowance[1]!)).toBe(true);
    expect(c.offer.compensation_model[1]).toBe(-1);
    expect(c.offer.cme_allowance[2]).toBe(O.cme_allowance[2]);
    expect(keyedReportsArtifact('x', c).offer!.reports).toEqual(some);
    const none = keyedColumnsFromArtifact(artifact({ offer: undefined }));
    expect('offer' in keyedReportsArtifact('x', none)).toBe(false);
    // a malformed offer block is refused
    expect(KeyedReportsArtifact.safeParse(artifact({ offer: { ...artifact().offer!, reports: [1, 0, ...range(N - 2, 2)] } })).success).toBe(false);
    expect(KeyedReportsArtifact.safeParse(artifact({ offer: { ...artifact().offer!, call_pay: [1, 2] } })).success).toBe(false);
  });
});

describe('the same reports give the same figures in the keyed API and the open data', () => {
  it('where both round alike (from 25 reports: whole dollars; halves; whole miles; shares; counts clear of 15 and 25)', () => {
    const ds = { reports: { offer: cols.offer, keyLo: cols.keyLo, keyHi: cols.keyHi }, drawKey: cols.drawKey } as unknown as Dataset;
    const open = offerFigures(ds, all);
    const keyed = componentsOf(all);
    // call pay: 40 answered, 30 with it (> 24: whole dollars in the open data too)
    const b = open.money[0]!;
    expect(b.component).toBe('call_pay');
    expect({ answered: b.answered, share_with_pct: b.share_with_pct, n_with: b.n_with, p25: b.p25, p50: b.median, p75: b.p75 }).toEqual(keyed.call_pay);
    const cme = open.money[5]!;
    expect({ answered: cme.answered, share_with_pct: cme.share_with_pct, n_with: cme.n_with, p25: cme.p25, p50: cme.median, p75: cme.p75 }).toEqual(keyed.cme_allowance);
    // loan repayment: 20 with it -- the open data rounds to $1,000 below 25 reports; the keyed API gives dollars
    const loan = open.money[4]!;
    expect(loan.rounded).toBe(true);
    expect(loan.share_with_pct).toBe(keyed.loan_repayment.share_with_pct);
    expect(loan.median).toBe(Math.round(keyed.loan_repayment.p50! / 1000) * 1000);
    // the sign-on bonus share from two small counts
    expect(open.money[1]!.share_with_pct).toBe(keyed.signing_bonus.share_with_pct);
    expect({ n: open.pto_weeks.n, p25: open.pto_weeks.p25, p50: open.pto_weeks.median, p75: open.pto_weeks.p75 }).toEqual(keyed.pto_weeks);
    expect({ n: open.call_nights_per_month.n, p25: open.call_nights_per_month.p25, p50: open.call_nights_per_month.median, p75: open.call_nights_per_month.p75 }).toEqual(keyed.call_nights_per_month);
    expect(open.compensation_models.answered).toBe(keyed.compensation_models.answered);
    expect(open.compensation_models.models.map((m) => m.share_pct)).toEqual(keyed.compensation_models.models.map((m) => m.share_pct));
    // the production rate from 11 reports: $1 in the open data, cents here -- the same median
    const rate = keyed.compensation_models.models[2]!.conversion_rate.p50!;
    expect(Math.abs(open.compensation_models.models[2]!.conversion_rate.median! - rate)).toBeLessThanOrEqual(0.5);
    const { answered, share_with_pct, n_with, median_miles, median_years } = open.non_compete;
    expect({ answered, share_with_pct, n_with, median_miles, median_years }).toEqual(keyed.non_compete);
    const pt = open.partnership_track;
    expect({ answered: pt.answered, share_with_pct: pt.share_with_pct, n_with: pt.n_with, median_years: pt.median_years }).toEqual(keyed.partnership_track);
  });
});
