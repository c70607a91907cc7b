/**
 * The inline pay chart (MCP Apps): one self-contained HTML document, served as the ui:// resource that
 * get_specialty_pay, evaluate_compensation and evaluate_offer name in their tool `_meta`. Hosts that support MCP Apps
 * render it in a sandboxed iframe; the others keep using the tool's text and structuredContent.
 *
 * Inline CSS and JS only, and a Content-Security-Policy that allows nothing from outside (no fonts, no
 * images, no fetch). The script speaks the MCP Apps protocol with the host by hand (postMessage JSON-RPC,
 * as the ext-apps App class does; the App client needs the MCP client SDK and zod, far too much to inline):
 *   view -> host  ui/initialize (request), then ui/notifications/initialized; ui/notifications/size-changed;
 *                 ui/open-link (request) when the reader opens the page and the host can open links
 *   host -> view  ui/notifications/tool-input, ui/notifications/tool-result (the CallToolResult: the chart
 *                 is drawn from its structuredContent), ui/notifications/tool-cancelled,
 *                 ui/notifications/host-context-changed (theme, style variables); ping and
 *                 ui/resource-teardown answered with an empty result, other requests with -32601.
 */
import { PAY_CHART_VIEW_JS } from './pay-chart-view.ts';

export const PAY_CHART_URI = 'ui://physpay/pay-chart.html';

/** The MCP Apps protocol version the view asks for (ext-apps LATEST_PROTOCOL_VERSION; a test checks it). */
export const APPS_PROTOCOL_VERSION = '2026-01-26';

/** Nothing from outside: inline style and script only. */
export const PAY_CHART_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const DARK = '--fg:var(--color-text-primary,#e6edf3);--muted:var(--color-text-secondary,#9198a1);--bg:var(--color-background-primary,#0d1117);--line:var(--color-border-primary,#3d444d);--accent:#4493f8;--bar:#6ea8fe;--box:#25486f;--ref:#ff7b72;--pay:#c297ff;--warn:#3a2d05;--warn-edge:#d29922;--grid:#262c36;--whisker:#d1d7e0;--median:#f0f6fc;color-scheme:dark';

/** The pages' chart styles (build/pages/layout.ts), with the host's theme variables where it gives them. */
const CSS = `:root{--fg:var(--color-text-primary,#1b1f24);--muted:var(--color-text-secondary,#57606a);--bg:var(--color-background-primary,#fff);--line:var(--color-border-primary,#d0d7de);--accent:#1f5fae;--bar:#3b6fb6;--box:#a9c4ea;--ref:#b3261e;--pay:#6f42c1;--warn:#fff4ce;--warn-edge:#bf8700;--grid:#eaeef2;--whisker:#24292f;--median:#111;color-scheme:light}
:root[data-theme=dark]{${DARK}}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${DARK}}}
*{box-sizing:border-box}
html,body{margin:0;background:var(--bg);color:var(--fg)}
body{font:15px/1.45 var(--font-sans,system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif);padding:12px 14px}
main{max-width:34rem}
h1{font-size:1.05rem;line-height:1.3;margin:0 0 .1rem}
p{margin:.4rem 0}
.sub,.meta,figcaption,.cite,.wait{color:var(--muted);font-size:.85rem}
.sub{margin-top:0}
.result{font-weight:600}
.notice{background:var(--warn);border-left:4px solid var(--warn-edge);padding:.4rem .6rem;font-size:.9rem}
.withheld,.na{color:var(--muted);font-style:italic}
.error{color:var(--ref)}
figure{margin:.5rem 0}
svg.chart{width:100%;height:auto;max-width:30rem;display:block}
.chart text{font-size:13px;fill:var(--fg);paint-order:stroke;stroke:var(--bg);stroke-width:3px;stroke-linejoin:round}
.chart .tick{font-size:11px;fill:var(--muted)}
.chart .strong{font-weight:600}
.chart .grid line{stroke:var(--grid)}
.chart .whisker{stroke:var(--whisker);stroke-width:2}
.chart .box{fill:var(--box);stroke:var(--bar)}
.chart .median{stroke:var(--median);stroke-width:4}
.chart .reference{stroke:var(--ref);stroke-width:2;stroke-dasharray:4 3}
.chart .ref{fill:var(--ref)}
.chart .pay{stroke:var(--pay);stroke-width:2}
.chart .pay-mark{fill:var(--pay);stroke:var(--bg);stroke-width:1.5}
.chart .pay-label{fill:var(--pay);font-weight:700}
@media (max-width:30rem){.chart text,.chart .tick{font-size:15px}}
details{margin:.4rem 0}
summary{cursor:pointer;color:var(--accent);font-size:.9rem}
table{border-collapse:collapse;font-size:.85rem;margin:.3rem 0}
caption{text-align:left;color:var(--muted);font-size:.8rem;padding-bottom:.2rem}
th,td{padding:.2rem .6rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th[scope=row]{font-weight:400}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.q{display:block;white-space:nowrap}
.band{display:block;font-size:.8rem;color:var(--muted)}
@media (max-width:30rem){th,td{padding:.2rem .3rem}}
.missing{border-left:4px solid var(--warn-edge);padding-left:.5rem}
.cite{overflow-wrap:anywhere}
a{color:var(--accent)}`;

/** The host bridge: the few MCP Apps messages the view needs, over postMessage to window.parent. */
const BRIDGE_JS = String.raw`(function(){
var PROTOCOL='${APPS_PROTOCOL_VERSION}';
var root=document.getElementById('app');var host=window.parent;var seq=0;var waiting={};var caps={};
function show(html){root.innerHTML=html;root.setAttribute('aria-busy','false');resized()}
function post(m){host.postMessage(m,'*')}
function request(method,params){var id=++seq;post({jsonrpc:'2.0',id:id,method:method,params:params});return new Promise(function(resolve,reject){waiting[id]={resolve:resolve,reject:reject}})}
function notify(method,params){post({jsonrpc:'2.0',method:method,params:params||{}})}
function answer(id,result){post({jsonrpc:'2.0',id:id,result:result})}
function applyContext(c){if(!c||typeof c!=='object')return;var el=document.documentElement;
if(c.theme==='dark'||c.theme==='light'){el.setAttribute('data-theme',c.theme);el.style.colorScheme=c.theme}
var v=c.styles&&c.styles.variables;if(v&&typeof v==='object')Object.keys(v).forEach(function(k){if(/^--[a-z0-9-]+$/.test(k)&&typeof v[k]==='string')el.style.setProperty(k,v[k])})}
var lastW=0,lastH=0,queued=false;
function resized(){if(queued||host===window)return;queued=true;requestAnimationFrame(function(){queued=false;var el=document.documentElement;var prev=el.style.height;el.style.height='max-content';var h=Math.ceil(el.getBoundingClientRect().height);el.style.height=prev;var w=Math.ceil(window.innerWidth);if(w!==lastW||h!==lastH){lastW=w;lastH=h;notify('ui/notifications/size-changed',{width:w,height:h})}})}
if(host===window){show('<p class="wait">This view shows the figures of a physpay tool result inside an assistant that supports MCP Apps.</p>');return}
window.addEventListener('message',function(ev){if(ev.source!==host)return;var m=ev.data;if(!m||typeof m!=='object'||m.jsonrpc!=='2.0')return;
if(typeof m.method!=='string'){var w=waiting[m.id];if(!w)return;delete waiting[m.id];if(m.error)w.reject(m.error);else w.resolve(m.result);return}
if(m.id!==undefined&&m.id!==null){if(m.method==='ping'||m.method==='ui/resource-teardown')answer(m.id,{});else post({jsonrpc:'2.0',id:m.id,error:{code:-32601,message:'Method not found: '+m.method}});return}
var p=m.params||{};
if(m.method==='ui/notifications/tool-result')show(payChartView(p));
else if(m.method==='ui/notifications/tool-input'){if(root.getAttribute('aria-busy')==='true'){var a=p.arguments||{};show('<p class="wait" aria-busy="true">Looking up '+esc(typeof a.specialty==='string'?a.specialty:'the figures')+'\u2026</p>');root.setAttribute('aria-busy','true')}}
else if(m.method==='ui/notifications/tool-cancelled')show('<p class="wait">The tool call was cancelled'+(typeof p.reason==='string'&&p.reason?' ('+esc(p.reason)+')':'')+'.</p>');
else if(m.method==='ui/notifications/host-context-changed'){applyContext(p);resized()}});
root.addEventListener('click',function(e){var a=e.target&&e.target.closest?e.target.closest('a[data-open]'):null;if(!a)return;var url=a.getAttribute('href')||'';
if(!safeUrl(url)){e.preventDefault();return}if(caps.openLinks){e.preventDefault();request('ui/open-link',{url:url}).catch(function(){})}});
if(typeof ResizeObserver==='function'){var ro=new ResizeObserver(resized);ro.observe(document.documentElement);ro.observe(document.body)}
request('ui/initialize',{appInfo:{name:'physpay-pay-chart',version:'1.0.0'},appCapabilities:{availableDisplayModes:['inline']},protocolVersion:PROTOCOL}).then(function(r){
caps=r&&r.hostCapabilities||{};applyContext(r&&r.hostContext);notify('ui/notifications/initialized');resized()},
function(){if(root.getAttribute('aria-busy')==='true')show('<p class="error">The assistant did not accept this view; the figures are in the tool\u2019s text.</p>')});
})();`;

/**
 * The ui:// document (pure: the same string on every call). It shows "Waiting for the figures" until the
 * host sends the tool result; without a host (opened on its own) it says what it is.
 */
export function payChartHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${PAY_CHART_CSP}">
<title>PhysPay: where the pay falls</title>
<style>${CSS}</style>
</head>
<body>
<main id="app" aria-busy="true" aria-labelledby="pp-h"><p class="wait">Waiting for the figures\u2026</p></main>
<noscript><p>This chart needs JavaScript; the tool's text gives the same figures.</p></noscript>
<script>
${PAY_CHART_VIEW_JS}${BRIDGE_JS}
</script>
</body>
</html>
`;
}
