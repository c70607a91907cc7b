/**
 * The planted-reports attack on the whole offer's open quartiles (offer.test.ts), as functions: a thin
 * specialty whose reports give a money component (a sign-on bonus), two nightly builds (without and with the
 * victim's report), an attacker who knows every amount of the cell but the victim's and the estimates it makes
 * from what the two builds publish.
 *
 * The attacker knows the code (the method, its constants, the rounding: it calls the method's own
 * offerQuartiles and offerQuantileMoveBound) but not the reports DB's secret: not the record factors of the
 * reports it planted, not the draws. Estimators:
 *
 * - inversion: the victim's amount v that makes the cell's quartiles, computed by the method from the known
 *   amounts and v, closest (in log) to the P25, median and P75 the second build published;
 * - likelihood: for each v of a grid, the probability of both builds' published quartiles (as published:
 *   rounded) under the method, averaged over the unknown record factors (each report's, the same in both
 *   builds) and the unknown draws (uniform); the estimate is the posterior median of v (flat in log v). Build 1
 *   (without the victim) tells it about its own reports' factors, build 2 about the victim;
 * - prior: the same likelihood times a prior for v fitted to the known amounts (lognormal), against that prior
 *   alone (its median, no figures): what the figures add to what the attacker knows anyway.
 */
import { offerFigures, offerQuantileMoveBound, offerQuartiles } from '../../build/compute/offer-figures.ts';
import { RECORD_NOISE } from '../../build/compute/disclosure.ts';
import { ROUNDING_MAX_N } from '../../build/compute/stats.ts';
import { createRng, type Rng } from '../../build/demo/rng.ts';
import { offerDataset, positions, type OfferReport } from '../helpers/offer-dataset.ts';

export interface Published {
  n_with: number | null;
  p25: number | null;
  median: number | null;
  p75: number | null;
}

export interface Trial {
  /** the victim's amount and the amounts the attacker knows (true values, as reported) */
  victim: number;
  known: number[];
  build1: Published;
  build2: Published;
}

/**
 * One trial: a secret of its own, `k` reports with a sign-on bonus (the victim among them, added in the second
 * build), `zeros` that answered "none", amounts from `amount`.
 */
export function runTrial(seed: number, k: number, amount: (rng: Rng) => number, zeros = 8): Trial {
  const rng = createRng(seed);
  const secret = Buffer.alloc(32);
  for (let b = 0; b < 32; b++) secret[b] = rng.int(0, 255);
  const amounts = Array.from({ length: k }, () => amount(rng));
  const victimAt = rng.int(0, k - 1);
  const reports: OfferReport[] = [
    ...amounts.map((a, i) => ({ id: 1000 + i, offer: { signing_bonus: a } })),
    ...Array.from({ length: zeros }, (_, z) => ({ id: 5000 + z, offer: { signing_bonus: 0 } })),
  ];
  const without = reports.filter((_, i) => i !== victimAt);
  const pub = (rs: OfferReport[]): Published => {
    const ds = offerDataset(rs, { secret });
    const m = offerFigures(ds, positions(rs.length)).money.find((c) => c.component === 'signing_bonus')!;
    return { n_with: m.n_with, p25: m.p25, median: m.median, p75: m.p75 };
  };
  return { victim: amounts[victimAt]!, known: amounts.filter((_, i) => i !== victimAt), build1: pub(without), build2: pub(reports) };
}

const PS = [0.25, 0.5, 0.75] as const;
const fieldOf = { 0.25: 'p25', 0.5: 'median', 0.75: 'p75' } as const;

/** The candidate amounts an attacker tries: a log grid from a fifth of the smallest known amount to five times the largest. */
function grid(known: number[], points: number): number[] {
  const lo = Math.log(Math.min(...known) / 5);
  const hi = Math.log(Math.max(...known) * 5);
  return Array.from({ length: points }, (_, g) => Math.exp(lo + ((hi - lo) * g) / (points - 1)));
}

/** Inversion: the v whose quartiles (with the known amounts) are closest to build 2's published ones. */
export function invert(t: Trial): number | null {
  if (t.build2.median === null) return null;
  const vs = grid(t.known, 1500);
  const score = vs.map((v) => {
    const q = offerQuartiles(Float64Array.from([...t.known, v]).sort(), true);
    return PS.reduce((a, p, j) => a + Math.log(Math.max(1, t.build2[fieldOf[p]]!) / q[j]!) ** 2, 0);
  });
  const best = Math.min(...score);
  // where the quartiles do not depend on v (it sits outside them), every v there fits alike: take the middle one
  const fits = vs.filter((_, g) => score[g]! <= best + 1e-12);
  return fits[Math.floor(fits.length / 2)]!;
}

/** P(a value x, moved by its draw (uniform in log within +-b) and rounded like the figure, is published as `obs`). */
function pRounded(x: number, b: number, obs: number, step: number): number {
  if (!(x > 0)) return obs === 0 ? 1 : 0;
  const lo = Math.max(-b, Math.log(Math.max(1e-9, obs - step / 2) / x));
  const hi = Math.min(b, Math.log((obs + step / 2) / x));
  return hi > lo ? (hi - lo) / (2 * b) : 0;
}

/** Likelihood of a published cell given its distorted values (each quartile's own draw; rounding by the cell's size). */
function likelihood(values: Float64Array, pub: Published): number {
  const n = values.length;
  const q = offerQuartiles(values.sort(), true);
  const b = offerQuantileMoveBound(n);
  const step = n <= ROUNDING_MAX_N ? 1000 : 1;
  let l = 1;
  PS.forEach((p, j) => {
    l *= pRounded(q[j]!, b, pub[fieldOf[p]]!, step) + 1e-12;
  });
  return l;
}

/** A record factor drawn as the method draws them (the attacker knows their law, not their values). */
function factor(rng: Rng): number {
  const d = RECORD_NOISE.min + (RECORD_NOISE.max - RECORD_NOISE.min) * rng.next();
  return Math.exp(rng.chance(0.5) ? d : -d);
}

/**
 * The likelihood of each v of a log grid given both builds' figures, marginalising the factors of every report
 * (the same factor in both builds) by `samples` draws.
 */
function likelihoods(t: Trial, o: { samples: number; points: number; seed: number }): { vs: number[]; lik: Float64Array } {
  const rng = createRng(o.seed);
  const vs = grid(t.known, o.points);
  const k = t.known.length;
  const lik = new Float64Array(o.points);
  const f = new Float64Array(k + 1);
  const buf1 = new Float64Array(k);
  const buf2 = new Float64Array(k + 1);
  for (let s = 0; s < o.samples; s++) {
    for (let i = 0; i <= k; i++) f[i] = factor(rng);
    for (let i = 0; i < k; i++) buf1[i] = t.known[i]! * f[i]!;
    const l1 = t.build1.median === null ? 1 : likelihood(buf1, t.build1);
    if (l1 < 1e-10) continue;
    for (let g = 0; g < o.points; g++) {
      for (let i = 0; i < k; i++) buf2[i] = t.known[i]! * f[i]!;
      buf2[k] = vs[g]! * f[k]!;
      lik[g] = lik[g]! + l1 * likelihood(buf2, t.build2);
    }
  }
  return { vs, lik };
}

/** The median of the posterior lik x prior over the grid (null when it is empty). */
function posteriorMedian(vs: number[], lik: Float64Array, prior: (v: number) => number): number | null {
  const post = Array.from(lik, (l, g) => l * prior(vs[g]!));
  const total = post.reduce((a, x) => a + x, 0);
  if (!(total > 0)) return null;
  let acc = 0;
  for (let g = 0; g < vs.length; g++) {
    acc += post[g]!;
    if (acc >= total / 2) return vs[g]!;
  }
  return vs[vs.length - 1]!;
}

export interface AttackOptions {
  samples?: number;
  points?: number;
  seed?: number;
}

export interface Estimates {
  /** likelihood attack: the posterior median of v, flat in log v */
  likelihood: number;
  /** the same with a prior fitted to the known amounts (lognormal: the mean and sd of their logs) */
  prior: number;
  /** that prior's median alone: no figure used */
  priorOnly: number;
}

/** The likelihood and prior attacks on one trial (null when build 2 withholds the cell). */
export function likelihoodAttacks(t: Trial, o: AttackOptions = {}): Estimates | null {
  if (t.build2.median === null) return null;
  const { vs, lik } = likelihoods(t, { samples: o.samples ?? 200, points: o.points ?? 140, seed: o.seed ?? 1 });
  const logs = t.known.map(Math.log);
  const mu = logs.reduce((a, x) => a + x, 0) / logs.length;
  const sd = Math.max(0.05, Math.sqrt(logs.reduce((a, x) => a + (x - mu) ** 2, 0) / (logs.length - 1)));
  const fallback = invert(t)!;
  return {
    likelihood: posteriorMedian(vs, lik, () => 1) ?? fallback,
    prior: posteriorMedian(vs, lik, (v) => Math.exp(-0.5 * ((Math.log(v) - mu) / sd) ** 2)) ?? Math.exp(mu),
    priorOnly: Math.exp(mu),
  };
}

/** Amounts as a continuous law: lognormal around $25,000 (log sd 0.45), $5,000 to $150,000. */
export function continuousAmount(rng: Rng): number {
  let z = rng.normal();
  while (Math.abs(z) > 2.5) z = rng.normal();
  return Math.round(25_000 * Math.exp(0.45 * z));
}

/** Amounts as offers state them: the same law, rounded to $5,000 (at least $5,000). */
export function roundAmount(rng: Rng): number {
  return Math.max(5_000, Math.round(continuousAmount(rng) / 5_000) * 5_000);
}
