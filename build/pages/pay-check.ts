/**
 * "Where does my pay fall?" on the specialty and specialty-in-state pages (pure).
 *
 * Without JavaScript the box is a table of the bands between the page's PUBLISHED percentiles (below P10,
 * P10-P25, ..., above P90), every dollar bound a figure of the page's feed. With JavaScript (PAY_CHECK_SCRIPT,
 * inlined by layout.ts on pages that carry the box) a number field and a result line appear: the position is
 * computed in the page, from the grid in the box's data-pay-grid, by PAY_POSITION_JS, a line-by-line port of
 * payPosition() in build/compute/pay-position.ts (the keyed API and the tool server use that function). Nothing
 * is sent anywhere. test/pages/pay-check.test.ts runs the port against payPosition() on random grids;
 * test/pages/browser.test.ts does the same through the page in Chromium.
 */
import { FLOORS } from '../compute/stats.ts';
import { MAX_ANNUAL_PAY, MIN_ANNUAL_PAY } from '../contract/annual-pay.ts';
import { PAY_AMOUNT_JS } from '../contract/pay-amount.ts';
import { standardGrid, type GridPoint } from '../compute/pay-position.ts';
import { attrs, esc } from './html.ts';
import { fig } from './figures.ts';
import type { HeadlineFigures } from '../compute/offer-check.ts';

/** The percentile summary of a page's feed (p50 is the feed's `median`): the offer check's headline figures without their flags. */
export type PayCheckFigures = Omit<HeadlineFigures, 'rounded' | 'withheld'>;

/** The feed field of each published percentile. */
const FIELD: Record<number, 'p10' | 'p25' | 'median' | 'p75' | 'p90'> = { 10: 'p10', 25: 'p25', 50: 'median', 75: 'p75', 90: 'p90' };

/** The grid the box answers from: the feed's published percentiles, exactly as the keyed API builds it. */
export function payCheckGrid(s: PayCheckFigures): GridPoint[] {
  return standardGrid({ p10: s.p10, p25: s.p25, p50: s.median, p75: s.p75, p90: s.p90 });
}

/** A band as the page names it: payPosition's band with an en dash ("P10–P25"). */
export function bandText(band: string): string {
  return band.replace('-', '\u2013');
}

const money = (g: GridPoint) => fig(FIELD[g.percentile]!, g.value, 'usd');

/**
 * The bands of a grid, lowest first: `band` is payPosition()'s band string (the row's data-band), `text`
 * the heading, `range` the HTML of its dollar bounds.
 */
export function payBands(grid: GridPoint[]): { band: string; text: string; range: string }[] {
  const first = grid[0]!;
  const last = grid[grid.length - 1]!;
  const rows = [{ band: `below P${first.percentile}`, text: `Below P${first.percentile}`, range: `under ${money(first)}` }];
  for (let i = 0; i + 1 < grid.length; i++) {
    const a = grid[i]!;
    const b = grid[i + 1]!;
    rows.push({ band: `P${a.percentile}-P${b.percentile}`, text: `P${a.percentile}\u2013P${b.percentile}`, range: `${money(a)} to ${money(b)}` });
  }
  rows.push({ band: `above P${last.percentile}`, text: `Above P${last.percentile}`, range: `over ${money(last)}` });
  return rows;
}

/**
 * The box. `scope` names the figures in the table caption ("Family Medicine, national"); `floor` is the
 * page's publication floor (named when the figures are withheld). Returns whether the page needs the script.
 */
export function payCheckBlock(s: PayCheckFigures, o: { scope: string; floor: number }): { html: string; script: boolean } {
  const grid = payCheckGrid(s);
  const head = '<h2 id="pay-h">Where does my pay fall?</h2>';
  if (s.n === null || grid.length < 2) {
    return {
      html: `<section class="paycheck" aria-labelledby="pay-h">
${head}
<p class="withheld">No estimate can be given here: the figures for ${esc(o.scope)} are withheld (fewer than ${o.floor} reports).</p>
</section>`,
      script: false,
    };
  }
  const first = grid[0]!;
  const last = grid[grid.length - 1]!;
  const rows = payBands(grid).map((r) => `<tr${attrs({ 'data-band': r.band })}><th scope="row">${esc(r.text)}</th><td>${r.range}</td></tr>`);
  const tails = first.percentile !== 10 || last.percentile !== 90
    ? `\n<p class="meta">P10 and P90 are published only from ${FLOORS.tails} reports up, so here the lowest band is below P${first.percentile} and the highest above P${last.percentile}.</p>`
    : '';
  const html = `<section${attrs({ class: 'paycheck', 'aria-labelledby': 'pay-h', 'data-pay-grid': JSON.stringify(grid.map((g) => [g.percentile, g.value])) })}>
${head}
<p>Compare your total annual compensation with the bands below. Any position shown is an estimate between the published percentiles of these ${fig('n', s.n, 'count')} self-reported reports, not your rank among the individual reports.</p>
<div class="pay-form" hidden="">
<label for="pay-input">Your total annual compensation, $</label>
<input${attrs({ id: 'pay-input', type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'pay-hint' })}>
<p id="pay-hint" class="meta">Base, bonus and incentives for one year, in dollars. Worked out in your browser: nothing you type is sent anywhere.</p>
<p${attrs({ id: 'pay-result', class: 'pay-result', role: 'status', 'aria-live': 'polite', 'data-state': 'empty' })}>Type an amount to see where it falls.</p>
</div>
<div class="table-wrap"><table id="pay-bands"><caption>${esc(`${o.scope}: pay bands between the published percentiles`)}</caption><thead><tr><th scope="col">Band</th><th scope="col">Total compensation</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></div>${tails}
</section>`;
  return { html, script: true };
}

/**
 * payPosition() of build/compute/pay-position.ts, ported to the browser statement by statement (same
 * comparisons, same arithmetic in the same order, so the same doubles). Grid points are {percentile, value}.
 * No backslashes and no "</" in here: it is inlined in a <script> through a template literal.
 */
export const PAY_POSITION_JS = `function label(p){return 'P'+p}
function oneDecimal(v){return Math.round(v*10)/10}
function payPosition(grid,x){
if(grid.length<2)throw new RangeError('a pay position needs at least two published percentiles');
var first=grid[0],last=grid[grid.length-1],a,b,i;
if(x<first.value)return{percentile:null,band:'below '+label(first.percentile),band_lower_percentile:0,band_upper_percentile:first.percentile,band_lower_value:null,band_upper_value:first.value};
if(x>last.value)return{percentile:null,band:'above '+label(last.percentile),band_lower_percentile:last.percentile,band_upper_percentile:100,band_lower_value:last.value,band_upper_value:null};
var equal=grid.filter(function(g){return g.value===x});
if(equal.length>0){var lo=equal[0],hi=equal[equal.length-1];i=grid.indexOf(hi);a=i<grid.length-1?hi:grid[i-1];b=i<grid.length-1?grid[i+1]:hi;
return{percentile:oneDecimal((lo.percentile+hi.percentile)/2),band:label(a.percentile)+'-'+label(b.percentile),band_lower_percentile:a.percentile,band_upper_percentile:b.percentile,band_lower_value:a.value,band_upper_value:b.value}}
i=0;while(grid[i+1].value<x)i++;
a=grid[i];b=grid[i+1];var t=(x-a.value)/(b.value-a.value);
return{percentile:oneDecimal(a.percentile+t*(b.percentile-a.percentile)),band:label(a.percentile)+'-'+label(b.percentile),band_lower_percentile:a.percentile,band_upper_percentile:b.percentile,band_lower_value:a.value,band_upper_value:b.value}}`;

/**
 * Reading the field: parsePayAmount() of build/contract/pay-amount.ts (300000, 300,000, $300,000, 300k, 1.2m),
 * ported to the page there. Returns {state:'empty'|'invalid'|'negative'} or {state:'ok', x}.
 */
export const PAY_PARSE_JS = PAY_AMOUNT_JS;

/**
 * The page's port of annualPayIssue() (build/contract/annual-pay.ts, the rule of the tools and the keyed API):
 * why an amount is not a year's total pay (420 for $420k, an hourly 150), or null. The same words, from the
 * same bounds; a test compares the two on random amounts.
 */
export const ANNUAL_PAY_JS = `function annualPayIssue(value){var f=new Intl.NumberFormat('en-US',{maximumFractionDigits:2});
if(value>${MAX_ANNUAL_PAY})return "is over $"+f.format(${MAX_ANNUAL_PAY})+", more than any year's pay";
if(value>=${MIN_ANNUAL_PAY})return null;
var k=value>0&&value<1000?'; if you meant $'+f.format(value)+'k, give '+Math.round(value*1000):'';
return "is under $"+f.format(${MIN_ANNUAL_PAY})+", too little for a year's total pay: give US dollars a year, not thousands or an hourly, daily or monthly rate"+k}`;

/** The box's behaviour: wire the field of every box on the page to its grid and table. */
export const PAY_CHECK_SCRIPT = `(function(){${PAY_POSITION_JS}
${PAY_PARSE_JS}
${ANNUAL_PAY_JS}
function group(s){var o='';while(s.length>3){o=','+s.slice(-3)+o;s=s.slice(0,-3)}return s+o}
function dollars(v){return '$'+group(String(Math.round(v)))}
function amount(v){var s=Number.isInteger(v)?String(v):v.toFixed(2),k=s.indexOf('.');return '$'+group(k<0?s:s.slice(0,k))+(k<0?'':s.slice(k))}
var MSG={empty:'Type an amount to see where it falls.',invalid:'Enter the amount in dollars, for example 250000, 250,000 or 250k.',negative:'Pay cannot be negative: enter an amount of $0 or more.'};
Array.prototype.forEach.call(document.querySelectorAll('[data-pay-grid]'),function(box){
var grid=JSON.parse(box.getAttribute('data-pay-grid')).map(function(p){return{percentile:p[0],value:p[1]}});
var form=box.querySelector('.pay-form'),input=box.querySelector('input'),out=box.querySelector('.pay-result'),rows=box.querySelectorAll('tr[data-band]');
if(!form||!input||!out||grid.length<2)return;form.hidden=false;
function show(){var r=parsePay(input.value),band='',pct='',text,issue=r.state==='ok'?annualPayIssue(r.x):null;
if(issue!==null){text=amount(r.x)+' '+issue+'.';r={state:'invalid'}}
else if(r.state==='ok'){var p=payPosition(grid,r.x),lo=p.band_lower_value,hi=p.band_upper_value;band=p.band;
if(p.percentile!==null){pct=String(p.percentile);text=amount(r.x)+' is at an estimated percentile of '+p.percentile.toFixed(1)+', in the '+p.band.replace('-','–')+' band ('+dollars(lo)+' to '+dollars(hi)+').'}
else if(hi!==null){text=amount(r.x)+' is '+p.band+' ('+dollars(hi)+'), the lowest published percentile, so only the band can be given.'}
else{text=amount(r.x)+' is '+p.band+' ('+dollars(lo)+'), the highest published percentile, so only the band can be given.'}}
else text=MSG[r.state];
out.textContent=text;out.setAttribute('data-state',r.state);out.setAttribute('data-percentile',pct);out.setAttribute('data-band',band);
if(r.state==='invalid'||r.state==='negative')input.setAttribute('aria-invalid','true');else input.removeAttribute('aria-invalid');
Array.prototype.forEach.call(rows,function(tr){tr.classList.toggle('hit',tr.getAttribute('data-band')===band)})}
input.addEventListener('input',show);if(input.value)show()})})();`;
