/**
 * "Check a whole offer" on the specialty pages (pure): a form that places every part of a job offer among
 * the page's PUBLISHED figures, computed in the browser. Nothing is sent anywhere.
 *
 * The section carries, in data-offer-figures, exactly the figures the check reads (offerFiguresOf() of the
 * page's specialty feed, and the headline figures of each specialty-in-state feed the page lists), and its
 * own inline script: OFFER_CHECK_JS, a statement-by-statement port of offerCheckCore() in
 * build/compute/offer-check.ts (the keyed API's /api/v1/offer-check and the tool server's evaluate_offer use
 * that function), plus the form's reading, checking and writing. Without JavaScript the form stays hidden
 * and a short paragraph says what it does and where else the same check is.
 * test/pages/offer-check-form.test.ts runs the port against offerCheckCore() on random figures and offers;
 * test/pages/offer-check-browser.test.ts compares the page's answers with evaluateOffer() in Chromium.
 */
import { compactJson } from '../emit/json.ts';
import type { SpecialtyFeed, SpecialtyStateFeed } from '../contract/open-feeds.ts';
import {
  DEFAULT_CONTRACT_YEARS, FIRST_YEAR_ONE_TIME, MISSING_SHARE_PCT, NO_MEDIAN, NO_RANGE, OFFER_NUMBER_FIELDS, OFFER_NUMBERS, type OfferNumberField,
} from '../contract/offer-check.ts';
import { COMPENSATION_MODELS, MONEY_COMPONENTS } from '../contract/offer-terms.ts';
import { MISSING_NOUN, offerFiguresOf, type HeadlineFigures, type OfferFigures } from '../compute/offer-check.ts';
import { FLOORS, FTE_HOURS, FTE_MAX_HOURS, FTE_MIN_HOURS } from '../compute/stats.ts';
import { attrs, esc } from './html.ts';
import { ANNUAL_PAY_JS, PAY_PARSE_JS, PAY_POSITION_JS } from './pay-check.ts';

/** A listed state, compactly: slug, name, then its headline figures (n, P10, P25, median, P75, P90, rounded, withheld). */
export type OfferPageState = [string, string, number | null, number | null, number | null, number | null, number | null, number | null, boolean, boolean];

/** What the page embeds: the specialty's trimmed figures and every listed state with its headline figures. */
export interface OfferPageFigures {
  specialty: OfferFigures['specialty'];
  national: HeadlineFigures;
  wrvu: OfferFigures['wrvu'];
  components: OfferFigures['components'];
  states: OfferPageState[];
}

/** The figures the check reads for the state `slug` of the page (null or unknown: national). */
export function offerFiguresForState(p: OfferPageFigures, slug: string | null): OfferFigures {
  const st = p.states.find((s) => s[0] === slug);
  return {
    specialty: p.specialty, national: p.national, wrvu: p.wrvu, components: p.components,
    state: st ? { slug: st[0], name: st[1], figures: { n: st[2], p10: st[3], p25: st[4], median: st[5], p75: st[6], p90: st[7], rounded: st[8], withheld: st[9] } } : null,
  };
}

/** The figures of the page, trimmed to what the check reads (model descriptions and counts left out). */
export function offerPageFigures(f: SpecialtyFeed, states: SpecialtyStateFeed[]): OfferPageFigures {
  const t = offerFiguresOf({ specialty: f });
  const c = t.components;
  return {
    specialty: t.specialty,
    national: t.national,
    wrvu: t.wrvu,
    components: {
      description: '',
      money: c.money.map((m) => ({ ...m, answered: null, n_with: null, rounded: m.rounded })),
      pto_weeks: c.pto_weeks,
      call_nights_per_month: c.call_nights_per_month,
      compensation_models: { answered: null, models: c.compensation_models.models.map((m) => ({ ...m, description: '' })) },
      non_compete: c.non_compete,
      partnership_track: c.partnership_track,
    },
    states: states.map((s): OfferPageState => [s.state.slug, s.state.name, s.n, s.p10, s.p25, s.median, s.p75, s.p90, s.rounded, s.withheld]),
  };
}

/** The form's fields: label, group and the hint under some of them. */
const LABEL: Record<OfferNumberField, string> = {
  base_salary: 'Base salary, $ a year', bonus: 'Bonus and incentives, $ a year', call_pay: 'Call pay, $ a year',
  signing_bonus: 'Sign-on bonus, $', retention_bonus: 'Retention bonus, $', relocation: 'Relocation, $', loan_repayment: 'Loan repayment, $ in all',
  loan_repayment_years: 'Loan repayment over, years', cme_allowance: 'CME allowance, $ a year', pto_weeks: 'Paid time off, weeks a year',
  call_nights_per_month: 'Call nights a month', non_compete_miles: 'Non-compete radius, miles', non_compete_years: 'Non-compete length, years',
  partnership_track_years: 'Years to partnership', contract_years: 'Contract length, years', hours_per_week: 'Hours a week', wrvus: 'wRVUs a year',
  wrvu_conversion_rate: 'Conversion rate, $ per wRVU',
};
const GROUPS: { legend: string; fields: OfferNumberField[] }[] = [
  { legend: 'Pay', fields: ['base_salary', 'bonus', 'call_pay'] },
  { legend: 'One-time payments', fields: ['signing_bonus', 'retention_bonus', 'relocation', 'loan_repayment', 'loan_repayment_years'] },
  { legend: 'Time off and terms', fields: ['cme_allowance', 'pto_weeks', 'call_nights_per_month', 'non_compete_miles', 'non_compete_years', 'partnership_track_years'] },
  { legend: 'Contract and productivity', fields: ['contract_years', 'hours_per_week', 'wrvus', 'wrvu_conversion_rate'] },
];
const HINT: Partial<Record<OfferNumberField, string>> = {
  contract_years: `One-time payments are spread over it; ${DEFAULT_CONTRACT_YEARS} when left empty.`,
  hours_per_week: `From ${FTE_MIN_HOURS} to ${FTE_HOURS - 1} hours the total is scaled to ${FTE_HOURS} hours, as the published figures are.`,
  non_compete_miles: '0 when there is none.',
  partnership_track_years: '0 when there is no partnership track.',
};

const field = (f: OfferNumberField) => {
  const id = `offer-${f.replace(/_/g, '-')}`;
  const hint = HINT[f] ? `${id}-hint` : undefined;
  return `<label${attrs({ for: id })}>${esc(LABEL[f])}${f === 'base_salary' ? ' (required)' : ''}</label>
<input${attrs({ id, name: f, type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': hint })}>${hint ? `\n<p${attrs({ id: hint, class: 'meta hint' })}>${esc(HINT[f]!)}</p>` : ''}`;
};

/** The section (without JavaScript: the explanation only). */
export function offerCheckForm(f: SpecialtyFeed, states: SpecialtyStateFeed[]): string {
  const name = f.specialty.name;
  const data = offerPageFigures(f, states);
  const stateOptions = data.states.map((s) => `<option${attrs({ value: s[0] })}>${esc(s[1])}${s[9] ? ' (national figures: too few reports)' : ''}</option>`).join('\n');
  const models = COMPENSATION_MODELS.map((m) => `<option${attrs({ value: m.value })}>${esc(m.label)}</option>`).join('\n');
  return `<section${attrs({ class: 'offercheck', 'aria-labelledby': 'offercheck-h', 'data-offer-figures': compactJson(data).trimEnd() })}>
<h2 id="offercheck-h">Check a whole offer</h2>
<p class="offer-nojs">With JavaScript on, a form here places each part of a ${esc(name)} job offer among the figures of this page: the total among the published percentiles (of the state when published), call pay, one-time payments, loan repayment and CME money against their published ranges, weeks off, call nights, non-compete and partnership track, the first-year and steady-state values, pay per wRVU, and what most offers include that yours leaves out. The same check is in the keyed API (/api/v1/offer-check) and the tool server (evaluate_offer).</p>
<div class="offer-form" hidden="">
<p>Enter the parts of the offer you have; only the base salary is required. Dollar amounts as written in the offer (commas and "$" are fine). Worked out in your browser from the published figures of this page: nothing you type is sent anywhere.</p>
<label for="offer-state">Compare the total with</label>
<select id="offer-state" name="state">
<option value="">United States (national figures)</option>
${stateOptions}
</select>
<div class="offer-fields">
${GROUPS.map((g) => `<fieldset>
<legend>${esc(g.legend)}</legend>
${g.fields.map(field).join('\n')}${g.legend === 'Contract and productivity' ? `
<label for="offer-compensation-model">Pay model</label>
<select id="offer-compensation-model" name="compensation_model">
<option value="">Not given</option>
${models}
</select>` : ''}
</fieldset>`).join('\n')}
</div>
<p${attrs({ id: 'offer-summary', class: 'offer-summary', role: 'status', 'aria-live': 'polite', 'data-state': 'empty' })}>Type the base salary to check the offer.</p>
<div${attrs({ id: 'offer-details', hidden: '' })}></div>
</div>
<script>${OFFER_CHECK_SCRIPT}</script>
</section>`;
}

/** Constants the port reads (from the same modules as the core). */
const OC = {
  fields: OFFER_NUMBER_FIELDS,
  money: MONEY_COMPONENTS.map((c) => ({ field: c.field, label: c.label, kind: c.kind })),
  firstYear: FIRST_YEAR_ONE_TIME,
  defaultYears: DEFAULT_CONTRACT_YEARS,
  missingPct: MISSING_SHARE_PCT,
  noun: MISSING_NOUN,
  noRange: NO_RANGE,
  noMedian: NO_MEDIAN,
  fteHours: FTE_HOURS,
  fteMin: FTE_MIN_HOURS,
  fteMax: FTE_MAX_HOURS,
  floorState: FLOORS.specialtyInState,
  floorNational: FLOORS.national,
};

/**
 * offerCheckCore() and its helpers (quartileBand, medianSide, standardGrid, payPositionMethod, fteNormalize)
 * ported to the browser statement by statement, with payPosition from PAY_POSITION_JS. No backticks, no
 * "${" and no "</" in here: it is inlined in a <script> through a template literal.
 */
export const OFFER_CHECK_JS = String.raw`var OC=` + JSON.stringify(OC) + String.raw`;
function ocRound2(v){return Math.round(v*100)/100}
function ocPctDiff(v,of){return Math.round(((v-of)/of)*1000)/10}
function quartileBand(x,p25,median,p75){if(p25===null||median===null||p75===null)return OC.noRange;if(x<p25)return 'below P25';if(x<median)return 'P25-median';if(x<=p75)return 'median-P75';return 'above P75'}
function medianSide(x,median){if(median===null)return OC.noMedian;if(x<median)return 'below the median';if(x===median)return 'at the median';return 'above the median'}
function standardGrid(p){return [[10,p.p10],[25,p.p25],[50,p.p50],[75,p.p75],[90,p.p90]].filter(function(g){return g[1]!==null&&isFinite(g[1])}).map(function(g){return{percentile:g[0],value:g[1]}})}
function payPositionMethod(grid){var names=grid.map(function(g){return label(g.percentile)}).join(', ');
return 'Estimated by linear interpolation between the published percentiles of this scope ('+names+'); below '+label(grid[0].percentile)+' or above '+label(grid[grid.length-1].percentile)+' only the band is given. The estimate uses published figures only, never individual reports.'}
function fteNormalize(total,h){if(h===null||isNaN(h)||h<OC.fteMin||h>OC.fteMax)return null;return h>=OC.fteHours?total:(total*OC.fteHours)/h}
function gridOfH(h){return standardGrid({p10:h.p10,p25:h.p25,p50:h.median,p75:h.p75,p90:h.p90})}
function usable(h){return h!==null&&!h.withheld&&gridOfH(h).length>=2}
function cap(s){return s.charAt(0).toUpperCase()+s.slice(1)}
function offerCheckCore(offer,f){
var echo={},i,k;for(i=0;i<OC.fields.length;i++){k=OC.fields[i];echo[k]=offer[k]===undefined?null:offer[k]}
echo.base_salary=offer.base_salary;echo.compensation_model=offer.compensation_model===undefined?null:offer.compensation_model;
var total=ocRound2(echo.base_salary+(echo.bonus===null?0:echo.bonus)+(echo.call_pay===null?0:echo.call_pay));
var fte=echo.hours_per_week===null?null:ocRound2(fteNormalize(total,echo.hours_per_week));
var sp=f.specialty.name,scope='national',used=f.national,stateClause=null;
if(f.state!==null){var sf=f.state.figures;if(usable(sf)){scope='state';used=sf}
else if(sf===null)stateClause='no figures are published for '+sp+' in '+f.state.name+' (no approved reports there)';
else stateClause='the figures for '+sp+' in '+f.state.name+' are withheld (fewer than '+OC.floorState+' reports)'}
var note=null,position=null;
if(scope==='national'&&!usable(f.national)){note=(stateClause===null?'The':cap(stateClause)+', and the')+' national figures for '+sp+' are withheld (fewer than '+OC.floorNational+' reports): no position can be given.'}
else{if(stateClause!==null)note=cap(stateClause)+': the national figures are used.';
var grid=gridOfH(used);var value=fte===null?total:fte;var pp=payPosition(grid,value);
position={scope:scope,compared:fte===null?'total_compensation':'fte_total_compensation',value:value,n:used.n,rounded:used.rounded,
percentile:pp.percentile,band:pp.band,band_lower_percentile:pp.band_lower_percentile,band_upper_percentile:pp.band_upper_percentile,band_lower_value:pp.band_lower_value,band_upper_value:pp.band_upper_value,
percentiles:{p10:used.p10,p25:used.p25,median:used.median,p75:used.p75,p90:used.p90},method:payPositionMethod(grid)}}
var components=f.components.money.map(function(c){var amount=echo[c.component];
return{component:c.component,label:c.label,kind:c.kind,unit:c.unit,amount:amount,band:amount===null||amount<=0?null:quartileBand(amount,c.p25,c.median,c.p75),
share_with_pct:c.share_with_pct,p25:c.p25,median:c.median,p75:c.p75,withheld:c.withheld}});
var C=f.components,pto=echo.pto_weeks,nights=echo.call_nights_per_month,miles=echo.non_compete_miles,ncYears=echo.non_compete_years,hasNonCompete=miles!==null&&miles>0,track=echo.partnership_track_years;
var P=C.pto_weeks,N=C.call_nights_per_month;
var terms={
pto_weeks:{value:pto,band:pto===null?null:quartileBand(pto,P.p25,P.median,P.p75),unit:P.unit,p25:P.p25,median:P.median,p75:P.p75,withheld:P.withheld},
call_nights_per_month:{value:nights,band:nights===null||nights<=0?null:quartileBand(nights,N.p25,N.median,N.p75),unit:N.unit,p25:N.p25,median:N.median,p75:N.p75,withheld:N.withheld},
non_compete:{miles:miles,years:ncYears,share_with_pct:C.non_compete.share_with_pct,median_miles:C.non_compete.median_miles,median_years:C.non_compete.median_years,
miles_vs_median:hasNonCompete?medianSide(miles,C.non_compete.median_miles):null,years_vs_median:hasNonCompete&&ncYears!==null?medianSide(ncYears,C.non_compete.median_years):null},
partnership_track:{years:track,share_with_pct:C.partnership_track.share_with_pct,median_years:C.partnership_track.median_years,years_vs_median:track!==null&&track>0?medianSide(track,C.partnership_track.median_years):null}};
var contractYears=echo.contract_years===null?OC.defaultYears:echo.contract_years;
var loanYears=echo.loan_repayment!==null&&echo.loan_repayment>0?(echo.loan_repayment_years===null?contractYears:echo.loan_repayment_years):null;
var parts=[{part:'base_salary',label:'Base salary',kind:'yearly',amount:echo.base_salary,first_year:echo.base_salary,per_year:echo.base_salary}];
if(echo.bonus!==null&&echo.bonus>0)parts.push({part:'bonus',label:'Bonus',kind:'yearly',amount:echo.bonus,first_year:echo.bonus,per_year:echo.bonus});
OC.money.forEach(function(c){var amount=offer[c.field]===undefined?null:offer[c.field];if(amount===null||amount<=0)return;
if(c.kind==='yearly')parts.push({part:c.field,label:c.label,kind:'yearly',amount:amount,first_year:amount,per_year:amount});
else if(c.field==='loan_repayment'){var each=ocRound2(amount/loanYears);parts.push({part:c.field,label:c.label,kind:'one_time',amount:amount,first_year:each,per_year:each})}
else parts.push({part:c.field,label:c.label,kind:'one_time',amount:amount,first_year:OC.firstYear.indexOf(c.field)>=0?amount:0,per_year:ocRound2(amount/contractYears)})});
var yearly=0,oneTime=0,firstYear=0,steady=0;
parts.forEach(function(p){if(p.kind==='yearly')yearly+=p.amount;else oneTime+=p.amount;firstYear+=p.first_year;steady+=p.per_year});
var wrvus=echo.wrvus,implied=wrvus===null?null:ocRound2(total/wrvus),W=f.wrvu;
var wgrid=standardGrid({p10:W.p10,p25:W.p25,p50:W.median,p75:W.p75,p90:W.p90});
var model=null;if(echo.compensation_model!==null){var ms=C.compensation_models.models;for(i=0;i<ms.length;i++)if(ms[i].model===echo.compensation_model){model=ms[i];break}}
var rate=model===null?null:model.conversion_rate.median,conversion=echo.wrvu_conversion_rate;
var missing=[];
function lacks(key,lbl,amount,share){if((amount===null||amount<=0)&&share!==null&&share>=OC.missingPct)missing.push({component:key,label:lbl,share_with_pct:share,text:'no '+OC.noun[key]+', which '+share+'% of the reports that answered have'})}
components.forEach(function(c){lacks(c.component,c.label,c.amount,c.share_with_pct)});
lacks('partnership_track','Partnership track',track,C.partnership_track.share_with_pct);
return{specialty:{slug:f.specialty.slug,name:f.specialty.name},state_asked:f.state===null?null:{slug:f.state.slug,name:f.state.name},scope_used:scope,scope_note:note,offer:echo,
total_compensation:total,fte_total_compensation:fte,position:position,components:components,terms:terms,
value:{contract_years:contractYears,contract_years_assumed:echo.contract_years===null,loan_repayment_years:loanYears,yearly:ocRound2(yearly),one_time:ocRound2(oneTime),first_year:ocRound2(firstYear),steady_state_yearly:ocRound2(steady),parts:parts},
productivity:{wrvus:wrvus,implied_per_wrvu:implied,
specialty_per_wrvu:{n:W.n,percentiles:{p10:W.p10,p25:W.p25,median:W.median,p75:W.p75,p90:W.p90},withheld:W.withheld,position:implied!==null&&!W.withheld&&wgrid.length>=2?payPosition(wgrid,implied):null},
compensation_model:model===null?null:{model:model.model,label:model.label,share_pct:model.share_pct,median_conversion_rate:rate},
implied_vs_model_median_pct:implied!==null&&rate!==null&&rate!==undefined?ocPctDiff(implied,rate):null,
conversion_rate:conversion,conversion_rate_vs_model_median_pct:conversion!==null&&rate!==null&&rate!==undefined?ocPctDiff(conversion,rate):null},
missing:missing,rules:{default_contract_years:OC.defaultYears,missing_share_pct:OC.missingPct,first_year_one_time:OC.firstYear.slice(),fte_hours:OC.fteHours}}}`;

/** Limits of each number, for the form's own messages (the same as OFFER_NUMBERS). */
const LIMITS = Object.fromEntries(OFFER_NUMBER_FIELDS.map((f) => {
  const s = OFFER_NUMBERS[f];
  return [f, [s.min, s.max, s.above ? 1 : 0, s.int ? 1 : 0, LABEL[f].replace(/, .*$/, '')]];
}));

/**
 * The form: read every field (parsePay, build/contract/pay-amount.ts: "$", "," and spaces ignored, 300k and 1.2m read), check it against its limits and
 * the offer's cross-field rules (each problem is written right under the field it is about, linked by
 * aria-describedby, and the first also in the summary), run offerCheckCore on the embedded figures, and write
 * the answer (and, for tests, the answer as JSON in data-answer of #offer-summary).
 */
const FORM_JS = String.raw`var LIMITS=` + JSON.stringify(LIMITS) + String.raw`;
function ocGroup(s){var o='';while(s.length>3){o=','+s.slice(-3)+o;s=s.slice(0,-3)}return s+o}
function ocMoney(v){var neg=v<0,a=Math.abs(v),s=Number.isInteger(a)?String(a):a.toFixed(2),k=s.indexOf('.');return (neg?'-':'')+'$'+ocGroup(k<0?s:s.slice(0,k))+(k<0?'':s.slice(k))}
function ocBand(b){return b.replace('-','–')}
function ocEsc(s){return String(s).replace(/[&<>"']/g,function(c){return{'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]})}
function ocMark(form,k,msg){var el=form.querySelector('[name="'+k+'"]');if(!el)return;var id=el.id+'-error',p=document.getElementById(id),d=(el.getAttribute('aria-describedby')||'').split(' ').filter(function(x){return x&&x!==id});
if(msg){if(!p){p=document.createElement('p');p.id=id;p.className='field-error';el.insertAdjacentElement('afterend',p)}p.textContent=msg;p.hidden=false;el.setAttribute('aria-invalid','true');d.push(id)}
else{if(p){p.hidden=true;p.textContent=''}el.removeAttribute('aria-invalid')}
if(d.length)el.setAttribute('aria-describedby',d.join(' '));else el.removeAttribute('aria-describedby')}
function readOffer(form){var offer={},problems=[];
OC.fields.forEach(function(k){var el=form.querySelector('[name="'+k+'"]');if(!el)return;var r=parsePay(el.value),L=LIMITS[k],bad=null;
if(r.state==='empty'){ocMark(form,k,null);return}
if(r.state==='invalid')bad=L[4]+': enter a number using digits, for example '+(L[3]?'3':'25000, 25,000 or 25k')+'.';
else if(r.state==='negative')bad=L[4]+' cannot be negative.';
else if((L[2]?r.x<=L[0]:r.x<L[0])||r.x>L[1])bad=L[4]+' must be '+(L[2]?'more than '+L[0]:'from '+L[0])+' '+(L[2]?'and at most ':'to ')+ocGroup(String(L[1]))+'.';
else if(L[3]&&!Number.isInteger(r.x))bad=L[4]+' must be a whole number.';
ocMark(form,k,bad);if(bad)problems.push(bad);else offer[k]=r.x});
var m=form.querySelector('[name="compensation_model"]');if(m&&m.value)offer.compensation_model=m.value;
if(!problems.length){var cross=function(k,t){ocMark(form,k,t);problems.push(t)};
if(offer.loan_repayment_years!==undefined&&!(offer.loan_repayment>0))cross('loan_repayment_years','Loan repayment years need a loan repayment amount above $0.');
if(offer.non_compete_years!==undefined&&offer.non_compete_miles===undefined)cross('non_compete_miles','Give the non-compete radius in miles too (0 when there is none).');
if(offer.non_compete_miles>0&&!(offer.non_compete_years>0))cross('non_compete_years','Give the non-compete length in years (above 0).');
if(offer.non_compete_miles===0&&offer.non_compete_years>0)cross('non_compete_miles','The non-compete has a length but a radius of 0 (none): give its radius.');
if(!problems.length&&offer.base_salary!==undefined){var total=offer.base_salary+(offer.bonus||0)+(offer.call_pay||0),pay=annualPayIssue(total);
if(pay!==null)cross('base_salary',(offer.bonus===undefined&&offer.call_pay===undefined?'Base salary '+ocMoney(offer.base_salary):'Base salary + bonus + call pay ('+ocMoney(total)+')')+' '+pay+'.')}}
return{offer:offer,problems:problems}}
function ocNum(v){var t=String(v),k=t.indexOf('.');return ocGroup(k<0?t:t.slice(0,k))+(k<0?'':t.slice(k))}
function ocYears(v){return v+(v===1?' year':' years')}
function ocPosText(a,where){var p=a.position,what=p.compared==='fte_total_compensation'?'Total compensation '+ocMoney(a.total_compensation)+'; at '+a.offer.hours_per_week+' hours a week, its full-time equivalent of '+ocMoney(p.value):'Total compensation '+ocMoney(p.value);
if(p.percentile!==null)return what+' is at an estimated percentile of '+p.percentile.toFixed(1)+', in the '+ocBand(p.band)+' band ('+ocMoney(p.band_lower_value)+' to '+ocMoney(p.band_upper_value)+') of '+where+'.';
if(p.band_upper_value!==null)return what+' is '+p.band+' ('+ocMoney(p.band_upper_value)+', the lowest published percentile) of '+where+', so only the band can be given.';
return what+' is '+p.band+' ('+ocMoney(p.band_lower_value)+', the highest published percentile) of '+where+', so only the band can be given.'}
function ocRange(q,fmt){return q.p25===null||q.median===null||q.p75===null?'<span class="withheld">withheld (fewer than '+OC.floorNational+' reports)</span>':'<span class="q">P25 '+ocEsc(fmt(q.p25))+'</span><span class="q">median '+ocEsc(fmt(q.median))+'</span><span class="q">P75 '+ocEsc(fmt(q.p75))+'</span>'}
function ocRow(label,offer,band,published){return '<tr><th scope="row">'+ocEsc(label)+'</th><td>'+ocEsc(offer)+'<span class="band">'+ocEsc(band)+'</span></td><td>'+published+'</td></tr>'}
function ocPct(v){return Math.abs(v).toFixed(1)+'% '+(v>=0?'above':'below')}
function ocDetails(a){var out=[],rows=[];
if(a.position&&a.scope_note)out.push('<p class="notice">'+ocEsc(a.scope_note)+'</p>');
a.components.forEach(function(c){if(c.amount===null||c.amount<=0)return;rows.push(ocRow(c.label,ocMoney(c.amount),c.band===OC.noRange?c.band:ocBand(c.band),ocRange(c,ocMoney)))});
[['pto_weeks','Paid time off, weeks'],['call_nights_per_month','Call nights a month']].forEach(function(t){var q=a.terms[t[0]];if(q.band===null)return;
rows.push(ocRow(t[1],String(q.value),q.band===OC.noRange?q.band:ocBand(q.band),ocRange(q,String)))});
var nc=a.terms.non_compete;if(nc.miles_vs_median!==null)rows.push(ocRow('Non-compete',nc.miles+' miles'+(nc.years!==null?', '+ocYears(nc.years):''),'radius '+nc.miles_vs_median+(nc.years_vs_median?', length '+nc.years_vs_median:''),'<span class="q">median '+ocEsc(nc.median_miles===null?'withheld':nc.median_miles+' miles')+'</span><span class="q">median '+ocEsc(nc.median_years===null?'withheld':ocYears(nc.median_years))+'</span>'));
var pt=a.terms.partnership_track;if(pt.years_vs_median!==null)rows.push(ocRow('Partnership track',ocYears(pt.years),pt.years_vs_median,'<span class="q">median '+ocEsc(pt.median_years===null?'withheld':ocYears(pt.median_years))+'</span>'));
if(rows.length)out.push('<div class="table-wrap"><table id="offer-parts"><caption>Each part against its published range</caption><thead><tr><th scope="col">Part</th><th scope="col">Offer: where it falls</th><th scope="col">Published, among reports that have it</th></tr></thead><tbody>'+rows.join('')+'</tbody></table></div>');
var v=a.value,once=v.parts.filter(function(p){return p.kind==='one_time'});
out.push('<ul class="offer-values"><li>First-year value: <strong>'+ocEsc(ocMoney(v.first_year))+'</strong>'+(once.length?ocEsc(' (yearly pay '+ocMoney(v.yearly)+' + '+once.map(function(p){return p.first_year===0?p.label.toLowerCase()+' not counted: paid for staying':p.label.toLowerCase()+' '+ocMoney(p.first_year)}).join(' + ')+')'):'')+'.</li>'
+'<li>Steady-state value: <strong>'+ocEsc(ocMoney(v.steady_state_yearly))+'</strong> a year, one-time payments spread over a '+v.contract_years+'-year contract'+(v.contract_years_assumed?' (assumed)':'')+(v.loan_repayment_years!==null?' and loan repayment over '+ocYears(v.loan_repayment_years):'')+'.</li></ul>');
var pr=a.productivity;
if(pr.implied_per_wrvu!==null){var wp=pr.specialty_per_wrvu.position,m=pr.compensation_model;
out.push('<p>'+ocEsc(ocNum(pr.wrvus)+' wRVUs a year: '+ocMoney(pr.implied_per_wrvu)+' of total pay per wRVU'+(wp?', '+(wp.percentile!==null?'at an estimated percentile of '+wp.percentile.toFixed(1):wp.band)+' of the specialty\u2019s published pay per wRVU (median '+ocMoney(pr.specialty_per_wrvu.percentiles.median)+')':'')
+(m&&pr.implied_vs_model_median_pct!==null?', '+ocPct(pr.implied_vs_model_median_pct)+' the median conversion rate of '+m.label+' contracts ('+ocMoney(m.median_conversion_rate)+')':'')+'.')+'</p>')}
if(pr.conversion_rate_vs_model_median_pct!==null)out.push('<p>'+ocEsc('The offered conversion rate of '+ocMoney(pr.conversion_rate)+' per wRVU is '+ocPct(pr.conversion_rate_vs_model_median_pct)+' that median ('+ocMoney(pr.compensation_model.median_conversion_rate)+').')+'</p>');
out.push(a.missing.length?'<p class="offer-missing"><strong>Missing:</strong> '+ocEsc(a.missing.map(function(x){return x.text}).join('; '))+'.</p>':'<p>Nothing that at least '+OC.missingPct+'% of the reports have is missing.</p>');
return out.join('')}
Array.prototype.forEach.call(document.querySelectorAll('[data-offer-figures]'),function(box){
var data=JSON.parse(box.getAttribute('data-offer-figures')),form=box.querySelector('.offer-form'),out=box.querySelector('.offer-summary'),details=box.querySelector('#offer-details'),nojs=box.querySelector('.offer-nojs');
if(!form||!out||!details)return;form.hidden=false;if(nojs)nojs.hidden=true;
function figuresFor(slug){var st=null;data.states.forEach(function(s){if(s[0]===slug)st=s});
return{specialty:data.specialty,national:data.national,wrvu:data.wrvu,components:data.components,
state:st===null?null:{slug:st[0],name:st[1],figures:{n:st[2],p10:st[3],p25:st[4],median:st[5],p75:st[6],p90:st[7],rounded:st[8],withheld:st[9]}}}}
function show(){var r=readOffer(form),sel=form.querySelector('[name="state"]'),state='empty',text,html='';
if(r.problems.length){state='invalid';text=r.problems[0]}
else if(r.offer.base_salary===undefined){text='Type the base salary to check the offer.'}
else{state='ok';var f=figuresFor(sel?sel.value:''),a=offerCheckCore(r.offer,f);out.setAttribute('data-answer',JSON.stringify(a));
var where=a.scope_used==='state'?'the published percentiles of '+f.specialty.name+' in '+a.state_asked.name:'the national published percentiles of '+f.specialty.name;
text=a.position?ocPosText(a,where):a.scope_note;
html=ocDetails(a)}
if(state!=='ok')out.removeAttribute('data-answer');
out.textContent=text;out.setAttribute('data-state',state);details.innerHTML=html;details.hidden=html==='';}
form.addEventListener('input',show);form.addEventListener('change',show);show()})`;

/** The section's script: the port, the pay check's payPosition and field reader, and the form. */
export const OFFER_CHECK_SCRIPT = `(function(){${PAY_POSITION_JS}
${PAY_PARSE_JS}
${ANNUAL_PAY_JS}
${OFFER_CHECK_JS}
${FORM_JS}})();`;
