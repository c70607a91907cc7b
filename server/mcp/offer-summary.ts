/**
 * evaluate_offer without `detail: "full"`: the offer check without its long or repeated parts, so that the
 * result stays under 8 kB (README, "Weight") however many parts the offer gives and whether or not it names a
 * state. Kept: the total's position among the published percentiles (all of them), each part the offer gives
 * with its amount, band, published median and share, the values, pay per wRVU with its percentile, what is
 * missing, and both citations. Left out, and named in `page.left_out`: the ranges of the parts the offer does
 * not give, each part's P25 and P75, the echo of the offer (the call's own arguments are `page.next`), each
 * part's share of the values, the method and basis in words, the fixed rules, and the citation fields that the
 * attribution lines hold. Every field kept is the full answer's own, unchanged.
 */
import type { OfferCheck } from '../../build/contract/offer-check.ts';

type Terms = OfferCheck['terms'];
type Component = OfferCheck['components'][number];
type Quantity = Terms['pto_weeks'];
type PerWrvu = OfferCheck['productivity']['specialty_per_wrvu'];

/** A part as the summary gives it: amount, band, published median and share (P25, P75, kind and unit only in the full answer). */
export type SummaryComponent = Pick<Component, 'component' | 'label' | 'amount' | 'band' | 'median' | 'share_with_pct'> & Partial<Component>;
export type SummaryQuantity = Pick<Quantity, 'value' | 'band' | 'unit' | 'median'> & Partial<Quantity>;
/** The specialty's pay per wRVU as the summary gives it: n, median and where the offer falls. */
export type SummaryPerWrvu = Pick<PerWrvu, 'n' | 'withheld'> & { median: number | null; percentiles?: PerWrvu['percentiles']; position: { percentile: number | null; band: string } | null };

/** Top-level citation fields the attribution line holds. */
const CITATION = ['title', 'publisher', 'release', 'modified', 'release_url'] as const;
type Citation = (typeof CITATION)[number];

/** The answer as the summary gives it (offer-text.ts words either; the full answer is one too). */
export type OfferAnswer = Omit<OfferCheck, 'terms' | 'components' | 'offer' | 'rules' | 'basis' | 'position' | 'value' | 'productivity' | 'state_source' | Citation> & {
  components: SummaryComponent[];
  terms: { pto_weeks?: SummaryQuantity; call_nights_per_month?: SummaryQuantity; non_compete?: Terms['non_compete']; partnership_track?: Terms['partnership_track'] };
  offer?: OfferCheck['offer'];
  rules?: OfferCheck['rules'];
  basis?: OfferCheck['basis'];
  position: (Omit<NonNullable<OfferCheck['position']>, 'method'> & { method?: string }) | null;
  value: Omit<OfferCheck['value'], 'parts'> & { parts?: OfferCheck['value']['parts'] };
  productivity: Omit<OfferCheck['productivity'], 'specialty_per_wrvu'> & { specialty_per_wrvu: PerWrvu | SummaryPerWrvu };
  state_source: (Pick<NonNullable<OfferCheck['state_source']>, 'feed_url' | 'attribution' | 'n' | 'as_of'> & Partial<NonNullable<OfferCheck['state_source']>>) | null;
} & Partial<Pick<OfferCheck, Citation>>;

const part = ({ component, label, amount, band, median, share_with_pct }: Component): SummaryComponent => ({ component, label, amount, band, median, share_with_pct });
const quantity = ({ value, band, unit, median }: Quantity): SummaryQuantity => ({ value, band, unit, median });
const perWrvu = (w: PerWrvu): SummaryPerWrvu => ({ n: w.n, median: w.percentiles.median, withheld: w.withheld, position: w.position && { percentile: w.position.percentile, band: w.position.band } });

/** The terms the offer gives (a term it does not give is only its published range). */
function givenTerms(t: Terms): OfferAnswer['terms'] {
  const given: OfferAnswer['terms'] = {};
  if (t.pto_weeks.value !== null) given.pto_weeks = quantity(t.pto_weeks);
  if (t.call_nights_per_month.value !== null) given.call_nights_per_month = quantity(t.call_nights_per_month);
  if (t.non_compete.miles !== null || t.non_compete.years !== null) given.non_compete = t.non_compete;
  if (t.partnership_track.years !== null) given.partnership_track = t.partnership_track;
  return given;
}

/** The summary of a full answer, and what it leaves out (page.left_out: each item names its fields). */
export function offerSummary(a: OfferCheck): { answer: OfferAnswer; left_out: string[] } {
  const left_out: string[] = [];
  const absent = a.components.filter((c) => c.amount === null).map((c) => c.component);
  if (absent.length) left_out.push(`components not in the offer (${absent.join(', ')})`);
  const terms = givenTerms(a.terms);
  const notGiven = Object.keys(a.terms).filter((k) => !(k in terms));
  if (notGiven.length) left_out.push(`terms not in the offer (${notGiven.join(', ')})`);
  const components = a.components.filter((c) => c.amount !== null).map(part);
  left_out.push('each part\'s p25, p75, kind, unit, withheld; specialty_per_wrvu\'s but the median', 'offer (= page.next)', 'value.parts, position.method, basis, rules');
  left_out.push(`${CITATION.join(', ')}${a.state_source ? ' (state_source\'s too)' : ''}: in the attribution`);
  const { offer: _o, rules: _r, basis: _b, title: _t, publisher: _p, release: _re, modified: _m, release_url: _ru, ...rest } = a;
  const { parts: _parts, ...value } = a.value;
  let position: OfferAnswer['position'] = null;
  if (a.position) {
    const { method: _method, ...p } = a.position;
    position = p;
  }
  const state_source = a.state_source && { feed_url: a.state_source.feed_url, attribution: a.state_source.attribution, n: a.state_source.n, as_of: a.state_source.as_of };
  const productivity = { ...a.productivity, specialty_per_wrvu: perWrvu(a.productivity.specialty_per_wrvu) };
  return { answer: { ...rest, state_source, position, components, terms, value, productivity }, left_out };
}
