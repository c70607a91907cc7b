/**
 * The pay chart's drawing code, as browser JavaScript source (pure: strings in, an HTML string out; no DOM,
 * no network). The ui:// resource (pay-chart.ts) inlines it; tests run it in Node as well.
 *
 * The formatters and the chart are ports of the pages' pure functions, statement by statement, so the
 * view writes the same figures the same way and draws the same chart as a specialty page:
 *   esc, attrs, fmtCount, fmtMoney, fmtMoneyShort   <- build/pages/html.ts
 *   niceStep, niceDomain, scaleX, percentileGeometry, percentileBarSvg, anchorFor <- build/pages/chart.ts
 *   labelWidth, placeLabels (the same source, not a port) <- build/pages/label-layout.ts
 *   distributionDesc                                  <- build/pages/blocks.ts
 *   the pay sentence                                  <- PAY_CHECK_SCRIPT in build/pages/pay-check.ts
 * The only changes: the marker of a given pay (evaluate_compensation), the lines drawn before the labels (so
 * a label's halo keeps a line off its text; the same elements as the page's chart otherwise), and the
 * layout around the chart.
 * test/mcp/apps-chart.test.ts checks the ports against the originals.
 *
 * Written with String.raw (backslashes stay as they are); no backticks, no "${" and no "</script" in here.
 */
import { FLOORS, ROUNDING_MAX_N } from '../../../build/compute/stats.ts';
import { LABEL_LAYOUT_JS } from '../../../build/pages/label-layout.ts';

const CONSTANTS = `var TAILS_FLOOR=${FLOORS.tails},NATIONAL_FLOOR=${FLOORS.national},ROUNDING_MAX_N=${ROUNDING_MAX_N};\n`;

/** esc/attrs and the number formats of build/pages/html.ts. */
const FORMAT_JS = String.raw`var ESCAPES={'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'};
function esc(value){return String(value).replace(/[&<>"']/g,function(c){return ESCAPES[c]})}
function attrs(a){var out='';for(var k in a){var v=a[k];if(v===undefined||v===null||v===false)continue;out+=' '+k+'="'+esc(v)+'"'}return out}
function group(intDigits){return intDigits.replace(/\B(?=(\d{3})+(?!\d))/g,',')}
function fmtCount(n){var sign=n<0?'-':'';return sign+group(String(Math.abs(Math.round(n))))}
function fmtMoney(v,cents){var sign=v<0?'-':'';var a=Math.abs(v);if(!cents)return sign+'$'+group(String(Math.round(a)));var parts=a.toFixed(2).split('.');return sign+'$'+group(parts[0])+'.'+parts[1]}
function trimZeros(s){return s.indexOf('.')>=0?s.replace(/0+$/,'').replace(/\.$/,''):s}
function fmtMoneyShort(v){if(Math.abs(v)>=1000000)return '$'+trimZeros((v/1000000).toFixed(2))+'M';if(Math.abs(v)>=10000)return '$'+Math.round(v/1000)+'k';return fmtMoney(v)}
function amount(v){return fmtMoney(v,!Number.isInteger(v))}
function bandText(band){return band.replace('-','\u2013')}
`;

/** The percentile bar of build/pages/chart.ts, plus the marker of a given pay. */
const CHART_JS = String.raw`var CHART_WIDTH=400,PLOT={left:16,right:384};
var LABEL_GAP=6,LABEL_ROW={first:32,step:18};
function round2(v){return Math.round(v*100)/100}
function niceStep(span,target){if(target===undefined)target=4;if(!(span>0))return 1;var raw=span/target;var pow=10**Math.floor(Math.log10(raw));var ms=[1,2,2.5,5,10];for(var i=0;i<ms.length;i++)if(ms[i]*pow>=raw)return ms[i]*pow;return 10*pow}
function niceDomain(lo,hi,target){if(target===undefined)target=4;if(hi<=lo){var pad=Math.abs(hi)*0.1||1;lo-=pad;hi+=pad}var step=niceStep(hi-lo,target);var nlo=Math.max(0,Math.floor(lo/step)*step);var nhi=Math.ceil(hi/step)*step;var ticks=[];for(var t=nlo;t<=nhi+step/1e6;t+=step)ticks.push(Math.round(t*1e6)/1e6);return{lo:nlo,hi:nhi,step:step,ticks:ticks}}
function scaleX(d,left,right){var span=d.hi-d.lo||1;return function(v){return round2(left+((v-d.lo)/span)*(right-left))}}
var PAY_SCALE_MAX=1.5;
function percentileGeometry(p,reference,pay){if(reference===undefined)reference=null;if(pay===undefined)pay=null;
var values=[p.p10,p.p25,p.median,p.p75,p.p90,reference].filter(function(v){return v!==null});
if(p.median===null&&p.p25===null&&p.p75===null)return null;
var max=Math.max.apply(null,values);
if(pay!==null&&pay>max&&pay<=max*PAY_SCALE_MAX)max=pay;
var domain=niceDomain(0,max*1.04);var x=scaleX(domain,PLOT.left,PLOT.right);
return{domain:domain,ticks:domain.ticks.map(function(value){return{value:value,x:x(value)}}),
whisker:p.p10!==null&&p.p90!==null?{x1:x(p.p10),x2:x(p.p90)}:null,
box:p.p25!==null&&p.p75!==null?{x:x(p.p25),width:round2(x(p.p75)-x(p.p25))}:null,
median:p.median!==null?x(p.median):null,reference:reference!==null?x(reference):null,
pay:pay===null?null:pay>domain.hi?{x:PLOT.right,off:true}:{x:x(pay),off:false},x:x}}
function num(field,value,text){return '<tspan'+attrs({'data-field':field,'data-value':value})+'>'+esc(text)+'</tspan>'}
function svgOpen(c,height){return '<svg'+attrs({xmlns:'http://www.w3.org/2000/svg','class':'chart',viewBox:'0 0 '+CHART_WIDTH+' '+height,role:'img','aria-labelledby':c.id+'-title','aria-describedby':c.id+'-desc','data-chart':c.id})+'>'
+'<title'+attrs({id:c.id+'-title'})+'>'+esc(c.title)+'</title><desc'+attrs({id:c.id+'-desc'})+'>'+esc(c.desc)+'</desc>'}
function anchorFor(x,width){if(x<width/2)return 'start';if(x>CHART_WIDTH-width/2)return 'end';return 'middle'}
function percentileBarSvg(c,p,opts){opts=opts||{};var ref=opts.reference||null;var pay=opts.pay||null;
var g=percentileGeometry(p,ref?ref.value:null,pay?pay.value:null);if(!g)return '';
var f=function(k){return (opts.fieldPrefix||'')+k};var money=function(v){return fmtMoney(v)};
var refRow=ref?18:0;var top=refRow+(pay?18:0);var yMedianLabel=top+16;var yBar=top+46;
var under=[];var ask=function(field,v,name,side,row){if(v!==null)under.push({field:field,v:v,name:name,spec:{text:name+' '+money(v),x:g.x(v),side:side,row:row}})};
ask('p25',p.p25,'P25','left',0);ask('p75',p.p75,'P75','right',0);ask('p10',p.p10,'P10','left',1);ask('p90',p.p90,'P90','right',1);
var placed=placeLabels(under.map(function(u){return u.spec}),CHART_WIDTH,LABEL_GAP);
var extraRows=Math.max.apply(null,[0].concat(placed.map(function(l){return l.row-1})));var extra=extraRows*LABEL_ROW.step;var height=top+130+extra;
// The page's elements, drawn lines first and labels last, so a label's halo keeps the lines off its text.
var out=[svgOpen(c,height)];var lines=[];var labels=[];out.push('<g class="grid">');
g.ticks.forEach(function(t){out.push('<line'+attrs({x1:t.x,x2:t.x,y1:top+24,y2:yBar+56+extra})+'></line>');var tick=fmtMoneyShort(t.value);
out.push('<text'+attrs({x:t.x,y:height-4,'text-anchor':anchorFor(t.x,labelWidth(tick)),'class':'tick'})+'>'+esc(tick)+'</text>')});
out.push('</g>');
if(g.whisker){lines.push('<line'+attrs({'class':'whisker',x1:g.whisker.x1,x2:g.whisker.x2,y1:yBar,y2:yBar})+'></line>');
[g.whisker.x1,g.whisker.x2].forEach(function(wx){lines.push('<line'+attrs({'class':'whisker',x1:wx,x2:wx,y1:yBar-8,y2:yBar+8})+'></line>')})}
if(g.box)lines.push('<rect'+attrs({'class':'box',x:g.box.x,y:yBar-14,width:g.box.width,height:28,rx:3})+'></rect>');
var px=pay&&g.pay?g.pay.x:null;var yPay=refRow+12;
if(px!==null)lines.push('<line'+attrs({'class':'pay',x1:px,x2:px,y1:yPay+5,y2:yBar+22,'data-pay-x':px,'data-off-scale':g.pay.off?'true':'false'})+'></line>');
if(g.median!==null&&p.median!==null){lines.push('<line'+attrs({'class':'median',x1:g.median,x2:g.median,y1:yBar-20,y2:yBar+20})+'></line>');
labels.push('<text'+attrs({x:g.median,y:yMedianLabel,'text-anchor':anchorFor(g.median,labelWidth('Median '+money(p.median),true)),'class':'label strong'})+'>Median '+num(f('median'),p.median,money(p.median))+'</text>')}
if(ref&&g.reference!==null){lines.push('<line'+attrs({'class':'reference',x1:g.reference,x2:g.reference,y1:4,y2:yBar+22})+'></line>');
labels.push('<text'+attrs({x:g.reference,y:12,'text-anchor':anchorFor(g.reference,labelWidth(ref.label+' '+money(ref.value))),'class':'label ref'})+'>'+esc(ref.label)+' '+num(ref.field,ref.value,money(ref.value))+'</text>')}
if(px!==null){var payText='Pay '+amount(pay.value)+' \u00b7 '+pay.note;
lines.push('<path'+attrs({'class':'pay-mark',d:g.pay.off?'M'+round2(px-9)+' '+(yBar-8)+'l12 8l-12 8z':'M'+px+' '+(yBar-8)+'l8 8l-8 8l-8 -8z'})+'></path>');
labels.push('<text'+attrs({x:px,y:yPay,'text-anchor':anchorFor(px,labelWidth(payText)),'class':'label pay-label'})+'>Pay '+num(pay.field,pay.value,amount(pay.value))+' \u00b7 '+esc(pay.note)+'</text>')}
under.forEach(function(u,i){var l=placed[i];labels.push('<text'+attrs({x:l.x,y:yBar+LABEL_ROW.first+l.row*LABEL_ROW.step,'text-anchor':l.anchor,'class':'label'})+'>'+esc(u.name)+' '+num(f(u.field),u.v,money(u.v))+'</text>')});
out.push(lines.join(''),labels.join(''),'</svg>');return out.join('')}
function distributionDesc(s){if(s.median===null)return 'Figures withheld: too few reports.';var parts=['Median '+fmtMoney(s.median)+'.'];
if(s.p25!==null&&s.p75!==null)parts.push('Middle half of reports (P25 to P75): '+fmtMoney(s.p25)+' to '+fmtMoney(s.p75)+'.');
if(s.p10!==null&&s.p90!==null)parts.push('P10 to P90: '+fmtMoney(s.p10)+' to '+fmtMoney(s.p90)+'.');else parts.push('P10 and P90 withheld (fewer than '+TAILS_FLOOR+' reports).');
if(s.n!==null)parts.push('Based on '+fmtCount(s.n)+' reports.');return parts.join(' ')}
`;

/**
 * The view: a tool result (CallToolResult) in, the HTML of the app's main element out. It reads the
 * structuredContent of get_specialty_pay (a specialty document, national or in a state), of
 * evaluate_compensation (a PayEvaluation) and of evaluate_offer (an OfferCheck: the total on the chart, each
 * part in a table against its published range: its quartiles, or its median alone in the default summary);
 * anything else is said in words.
 */
const VIEW_JS = String.raw`function isNum(v){return typeof v==='number'&&isFinite(v)}
function numOrNull(v){return isNum(v)?v:null}
function str(v){return typeof v==='string'?v:''}
function firstText(r){var c=r&&Array.isArray(r.content)?r.content:[];for(var i=0;i<c.length;i++)if(c[i]&&c[i].type==='text'&&typeof c[i].text==='string')return c[i].text;return ''}
function payDoc(sc){if(!sc||typeof sc!=='object')return null;
var ev=isNum(sc.compensation)&&!!sc.percentiles&&typeof sc.percentiles==='object';
if(!ev&&!('median' in sc&&'p25' in sc&&'p75' in sc))return null;
var figs=ev?sc.percentiles:sc;var state=sc.scope==='state'&&sc.state&&typeof sc.state.name==='string'?sc.state.name:null;
var d={evaluation:ev,prefix:ev?'percentiles.':'',p10:numOrNull(figs.p10),p25:numOrNull(figs.p25),median:numOrNull(figs.median),p75:numOrNull(figs.p75),p90:numOrNull(figs.p90),
mean:ev?null:numOrNull(sc.mean),n:numOrNull(sc.n),specialty:sc.specialty&&typeof sc.specialty.name==='string'?sc.specialty.name:'this specialty',state:state,
national:state!==null?numOrNull(sc.national_median):null,hasNational:state!==null&&'national_median' in sc,
as_of:str(sc.as_of),attribution:str(sc.attribution),notice:str(sc.notice),citation_url:str(sc.citation_url),rounded:sc.rounded===true,synthetic:sc.synthetic===true,withheld:sc.withheld===true,pay:null};
if(ev)d.pay={value:sc.compensation,percentile:numOrNull(sc.percentile),band:typeof sc.band==='string'?sc.band:null,lower:numOrNull(sc.band_lower_value),upper:numOrNull(sc.band_upper_value)};
return d}
function paySentence(p){if(p.band===null)return 'No estimate for '+amount(p.value)+': the figures are withheld (never estimated).';
if(p.percentile!==null&&p.lower!==null&&p.upper!==null)return amount(p.value)+' is at an estimated percentile of '+p.percentile.toFixed(1)+', in the '+bandText(p.band)+' band ('+fmtMoney(p.lower)+' to '+fmtMoney(p.upper)+').';
if(p.upper!==null)return amount(p.value)+' is '+p.band+' ('+fmtMoney(p.upper)+'), the lowest published percentile, so only the band can be given.';
if(p.lower!==null)return amount(p.value)+' is '+p.band+' ('+fmtMoney(p.lower)+'), the highest published percentile, so only the band can be given.';
return amount(p.value)+': band '+p.band+'.'}
function payNote(p){return p.percentile!==null?'est. P'+p.percentile.toFixed(1):p.band}
function cell(field,v,withheldText){return v===null?'<td'+attrs({'class':'num withheld','data-field':field,'data-value':'null'})+'>'+esc(withheldText)+'</td>':'<td'+attrs({'class':'num','data-field':field,'data-value':v})+'>'+esc(fmtMoney(v))+'</td>'}
function figuresTable(d,title){var tails='withheld (fewer than '+TAILS_FLOOR+' reports)';var rows=[
['10th percentile (P10)','p10',d.p10,tails],['25th percentile (P25)','p25',d.p25,'withheld'],['Median (P50)','median',d.median,'withheld'],['75th percentile (P75)','p75',d.p75,'withheld'],['90th percentile (P90)','p90',d.p90,tails]];
var out=rows.map(function(r){return '<tr><th scope="row">'+esc(r[0])+'</th>'+cell(d.prefix+r[1],r[2],r[3])+'</tr>'});
if(!d.evaluation)out.push('<tr><th scope="row">Mean</th>'+cell('mean',d.mean,'withheld')+'</tr>');
if(d.hasNational)out.push('<tr><th scope="row">US median</th>'+cell('national_median',d.national,'withheld')+'</tr>');
if(d.pay){out.push('<tr><th scope="row">Pay asked about</th><td'+attrs({'class':'num','data-field':'compensation','data-value':d.pay.value})+'>'+esc(amount(d.pay.value))+'</td></tr>');
out.push('<tr><th scope="row">Estimated percentile</th><td'+attrs({'class':'num','data-field':'percentile','data-value':d.pay.percentile===null?'null':d.pay.percentile})+'>'+esc(d.pay.percentile===null?'outside the published percentiles':d.pay.percentile.toFixed(1))+'</td></tr>');
out.push('<tr><th scope="row">Band</th><td'+attrs({'class':'num','data-field':'band'})+'>'+esc(bandText(d.pay.band||''))+'</td></tr>')}
out.push('<tr><th scope="row">Reports used (n)</th><td'+attrs({'class':'num','data-field':'n','data-value':d.n===null?'null':d.n})+'>'+esc(d.n===null?'withheld':fmtCount(d.n))+'</td></tr>');
return '<details><summary>The figures as a table</summary><table><caption>'+esc(title+': figures')+'</caption><thead><tr><th scope="col">Figure</th><th scope="col">Total compensation</th></tr></thead><tbody>'+out.join('')+'</tbody></table></details>'}
function isOffer(sc){return !!sc&&typeof sc==='object'&&isNum(sc.total_compensation)&&Array.isArray(sc.components)&&!!sc.value&&typeof sc.value==='object'&&!!sc.terms&&!!sc.productivity}
function moneySpan(field,v){return v===null?'<span'+attrs({'class':'withheld','data-field':field,'data-value':'null'})+'>withheld</span>':'<span'+attrs({'data-field':field,'data-value':v})+'>'+esc(amount(v))+'</span>'}
function bandWord(b){return b===null?'':b==='no published range'?'no published range':bandText(b)}
function quartileCell(prefix,q,fmt){var keys=q.p25===undefined||q.p75===undefined?['median']:['p25','median','p75'];
if(keys.some(function(k){return q[k]===null}))return '<span class="withheld">withheld (fewer than '+NATIONAL_FLOOR+' reports have it)</span>';
return keys.map(function(key){return '<span class="q">'+(key==='median'?'median':key.toUpperCase())+' '+(fmt?moneySpan(prefix+key,q[key]):esc(String(q[key])))+'</span>'}).join('')}
function offerRows(sc){var rows=[];
sc.components.forEach(function(c,k){if(!c||!isNum(c.amount)||c.amount<=0)return;
rows.push('<tr><th scope="row">'+esc(str(c.label))+'</th><td class="num">'+moneySpan('components.'+k+'.amount',c.amount)+'<span'+attrs({'class':'band','data-band':str(c.band)})+'>'+esc(bandWord(c.band))+'</span></td><td>'+quartileCell('components.'+k+'.',c,true)+'</td></tr>')});
[['pto_weeks','Weeks off'],['call_nights_per_month','Call nights a month']].forEach(function(t){var q=sc.terms[t[0]];if(!q||!isNum(q.value)||q.band===null)return;
rows.push('<tr><th scope="row">'+esc(t[1])+'</th><td class="num">'+esc(String(q.value))+'<span'+attrs({'class':'band','data-band':str(q.band)})+'>'+esc(bandWord(q.band))+'</span></td><td>'+quartileCell('',q,false)+'</td></tr>')});
return rows}
function pct(v){return (v>=0?'+':'')+v.toFixed(1)+'%'}
function offerView(sc){
var sp=sc.specialty&&typeof sc.specialty.name==='string'?sc.specialty.name:'this specialty';
var st=sc.state_asked&&typeof sc.state_asked.name==='string'?sc.state_asked.name:null;
var p=sc.position&&typeof sc.position==='object'?sc.position:null;var v=sc.value;
var where=p&&p.scope==='state'&&st!==null?sp+' in '+st:sp+', United States';
var out=['<h1 id="pp-h">'+esc('Offer check: '+sp+(st!==null?' in '+st:''))+'</h1>'];
out.push('<p class="sub">Each part of the offer against published figures'+(p&&isNum(p.n)?' ('+esc(where)+': <span'+attrs({'data-field':'position.n','data-value':p.n})+'>'+esc(fmtCount(p.n))+'</span> approved self-reported reports)':' from approved self-reported reports')+', data as of <span data-field="as_of">'+esc(str(sc.as_of))+'</span></p>');
if(p){var pay={value:p.value,percentile:numOrNull(p.percentile),band:str(p.band),lower:numOrNull(p.band_lower_value),upper:numOrNull(p.band_upper_value)};
out.push('<p'+attrs({'class':'result','data-band':pay.band,'data-percentile':pay.percentile===null?'':pay.percentile})+'>'+esc((p.compared==='fte_total_compensation'?'Full-time equivalent total ':'Total compensation ')+paySentence(pay))+'</p>');
if(sc.scope_note)out.push('<p class="notice" role="note"><span data-field="scope_note">'+esc(str(sc.scope_note))+'</span></p>');
var pc=p.percentiles||{};var figs={p10:numOrNull(pc.p10),p25:numOrNull(pc.p25),median:numOrNull(pc.median),p75:numOrNull(pc.p75),p90:numOrNull(pc.p90)};
var mark={value:p.value,field:'position.value',note:payNote(pay)};
var svg=percentileBarSvg({id:'pp',title:where+': total compensation',desc:distributionDesc({median:figs.median,p10:figs.p10,p25:figs.p25,p75:figs.p75,p90:figs.p90,n:numOrNull(p.n)})+' Offer '+amount(p.value)+': '+(pay.percentile!==null?'estimated percentile '+pay.percentile.toFixed(1)+', band '+bandText(pay.band)+'.':pay.band+'.')},figs,{fieldPrefix:'position.percentiles.',pay:mark});
if(svg)out.push('<figure>'+svg+'<figcaption>'+esc('Box: P25 to P75; line: P10 to P90; dark marker: median; '+(percentileGeometry(figs,null,p.value).pay.off?'arrow at the right edge: the offer, beyond the scale.':'diamond: the offer.'))+'</figcaption></figure>')}
else out.push('<p class="withheld">'+esc(str(sc.scope_note)||'No position: the figures are withheld, and never estimated.')+'</p>');
var rows=offerRows(sc);
if(rows.length)out.push('<table><caption>Each part against its published range, among reports that have it</caption><thead><tr><th scope="col">Part</th><th scope="col">Offer: where it falls</th><th scope="col">Published</th></tr></thead><tbody>'+rows.join('')+'</tbody></table>');
if(v&&isNum(v.first_year))out.push('<p>First-year value '+moneySpan('value.first_year',v.first_year)+'; steady-state '+moneySpan('value.steady_state_yearly',v.steady_state_yearly)+' a year, one-time payments spread over a '+esc(String(v.contract_years))+'-year contract'+(v.contract_years_assumed?' (assumed)':'')+'.</p>');
var pr=sc.productivity;
if(pr&&isNum(pr.implied_per_wrvu)){var wp=pr.specialty_per_wrvu&&pr.specialty_per_wrvu.position;var m=pr.compensation_model;
out.push('<p>Implied '+moneySpan('productivity.implied_per_wrvu',pr.implied_per_wrvu)+' per wRVU'+(wp?': '+esc(wp.percentile!==null?'estimated percentile '+wp.percentile.toFixed(1):wp.band)+' of the specialty\u2019s published $/wRVU':'')+(m&&isNum(pr.implied_vs_model_median_pct)?'; '+esc(pct(pr.implied_vs_model_median_pct))+' against the '+esc(str(m.label))+' median conversion rate ('+moneySpan('productivity.compensation_model.median_conversion_rate',m.median_conversion_rate)+')':'')+'.</p>')}
if(Array.isArray(sc.missing)&&sc.missing.length)out.push('<p class="missing"><strong>Missing:</strong> '+esc(sc.missing.map(function(x){return str(x.text)}).join('; '))+'.</p>');
if(p&&p.rounded)out.push('<p class="meta">Figures from '+ROUNDING_MAX_N+' or fewer reports are rounded to the nearest $1,000.</p>');
if(sc.synthetic===true)out.push('<p class="meta">Synthetic demo data, not real reports.</p>');
var link=safeUrl(str(sc.citation_url));
out.push('<p class="cite"><span data-field="attribution">'+esc(str(sc.attribution))+'</span>'+(sc.state_source&&sc.state_source.attribution?' <span data-field="state_source.attribution">'+esc(str(sc.state_source.attribution))+'</span>':'')+(link?' <a'+attrs({href:link,target:'_blank',rel:'noopener noreferrer','data-open':'true'})+'>Open the page</a>':'')+'</p>');
return out.join('')}
function safeUrl(u){return /^https?:[/][/]/i.test(u)?u:''}
function payChartView(result){
if(!result||typeof result!=='object')return '<p class="error">No tool result to show.</p>';
var text=firstText(result);
if(result.isError)return '<p class="error" role="alert">'+esc(text||'The tool returned an error.')+'</p>';
if(isOffer(result.structuredContent))return offerView(result.structuredContent);
var d=payDoc(result.structuredContent);
if(!d)return '<p class="error">This result carries no pay figures to chart.'+(text?' '+esc(text):'')+'</p>';
var where=d.state!==null?d.specialty+' in '+d.state:d.specialty+', United States';
var out=['<h1 id="pp-h">'+esc(where)+'</h1>'];
out.push('<p class="sub">Total annual compensation from '+(d.n!==null?'<span'+attrs({'data-field':'n','data-value':d.n})+'>'+esc(fmtCount(d.n))+'</span> approved':'approved')
+' self-reported reports, data as of <span data-field="as_of">'+esc(d.as_of)+'</span></p>');
if(d.pay)out.push('<p'+attrs({'class':'result','data-band':d.pay.band===null?'':d.pay.band,'data-percentile':d.pay.percentile===null?'':d.pay.percentile})+'>'+esc(paySentence(d.pay))+'</p>');
if(d.notice)out.push('<p class="notice" role="note"><span data-field="notice">'+esc(d.notice)+'</span></p>');
var p={p10:d.p10,p25:d.p25,median:d.median,p75:d.p75,p90:d.p90};
var ref=d.national!==null?{value:d.national,label:'US median',field:'national_median'}:null;
var pay=d.pay&&d.pay.band!==null?{value:d.pay.value,field:'compensation',note:payNote(d.pay)}:null;
var desc=distributionDesc({median:d.median,p10:d.p10,p25:d.p25,p75:d.p75,p90:d.p90,n:d.n})+(ref?' US median '+fmtMoney(ref.value)+'.':'')+(pay?' Pay '+amount(pay.value)+': '+(d.pay.percentile!==null?'estimated percentile '+d.pay.percentile.toFixed(1)+', band '+bandText(d.pay.band)+'.':d.pay.band+'.'):'');
var title=where+': total compensation';
var svg=percentileBarSvg({id:'pp',title:title,desc:desc},p,{fieldPrefix:d.prefix,reference:ref,pay:pay});
if(svg){var legend=['Box: P25 to P75','line: P10 to P90','dark marker: median'+(d.state===null?' (United States)':' in '+d.state)];
if(ref)legend.push('dashed line: US median');if(pay)legend.push(percentileGeometry(p,ref?ref.value:null,pay.value).pay.off?'arrow at the right edge: the pay asked about, beyond the scale':'diamond: the pay asked about');
out.push('<figure>'+svg+'<figcaption>'+esc(legend.join('; ')+'.')+'</figcaption></figure>');
if(d.p10===null||d.p90===null)out.push('<p class="meta">P10 and P90 are published only from '+TAILS_FLOOR+' reports up.</p>');

out.push(figuresTable(d,title))}
else out.push('<p class="withheld">No chart: the figures are withheld, and never estimated.</p>');
if(d.rounded)out.push('<p class="meta">Figures from '+ROUNDING_MAX_N+' or fewer reports are rounded to the nearest $1,000.</p>');
if(d.synthetic)out.push('<p class="meta">Synthetic demo data, not real reports.</p>');
var link=safeUrl(d.citation_url);
out.push('<p class="cite"><span data-field="attribution">'+esc(d.attribution)+'</span>'+(link?' <a'+attrs({href:link,target:'_blank',rel:'noopener noreferrer','data-open':'true'})+'>Open the page</a>':'')+'</p>');
return out.join('')}
`;

/** Everything the view needs, in one script body (function declarations only: nothing runs). */
export const PAY_CHART_VIEW_JS = CONSTANTS + FORMAT_JS + LABEL_LAYOUT_JS + CHART_JS + VIEW_JS;

/** Names PAY_CHART_VIEW_JS defines that tests call. */
export const VIEW_EXPORTS = ['esc', 'fmtCount', 'fmtMoney', 'fmtMoneyShort', 'niceDomain', 'percentileGeometry', 'percentileBarSvg', 'distributionDesc', 'payChartView', 'paySentence', 'offerView'] as const;
