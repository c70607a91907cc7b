/**
 * Finding things on the public site (pure): the site search box every page carries, the small search
 * index the build writes beside the pages (search-index.json), and the inline scripts that enhance the
 * box and make tables sortable. Both are progressive enhancements: without JavaScript the box is hidden
 * (the navigation links to the three index pages stay), and tables keep their default order.
 */
import type { InstitutionsFeed, SpecialtiesFeed, StatesFeed } from '../contract/open-feeds.ts';

/** Public-tree path (and URL path) of the search index. */
export const SEARCH_INDEX_FILE = 'search-index.json';

/** One search entry: name shown, kind, URL path, extra words it answers to. */
export interface SearchEntry {
  name: string;
  kind: 'Specialty' | 'State' | 'Teaching hospital';
  url: string;
  /** lowercase words also matched: slug, state code, city */
  aliases: string[];
}

/** Every specialty, state and teaching hospital, in that order, each by name (code-point order). */
export function searchIndex(baseUrl: string, sp: SpecialtiesFeed, st: StatesFeed, inst: InstitutionsFeed): SearchEntry[] {
  const href = (url: string, base: string) => (url.startsWith(`${base}/`) ? url.slice(base.length) : url);
  const byName = (a: SearchEntry, b: SearchEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const specialties = sp.specialties.map((e): SearchEntry => ({ name: e.name, kind: 'Specialty', url: href(e.citation_url, baseUrl), aliases: [e.slug.replace(/-/g, ' ')] }));
  const states = st.states.map((e): SearchEntry => ({ name: e.state.name, kind: 'State', url: href(e.citation_url, baseUrl), aliases: [e.state.code.toLowerCase()] }));
  const hospitals = inst.institutions.map((e): SearchEntry => ({
    name: e.institution.name, kind: 'Teaching hospital', url: href(e.citation_url, baseUrl), aliases: [`${e.institution.city} ${e.institution.state.code}`.toLowerCase(), e.institution.state.name.toLowerCase()],
  }));
  // One entry per URL (a hospital lists one scale per academic year).
  const seen = new Set<string>();
  return [...specialties.sort(byName), ...states.sort(byName), ...hospitals.sort(byName)].filter((e) => !seen.has(e.url) && seen.add(e.url));
}

/** The search index file: compact JSON, one array of [name, kind, url, aliases]. */
export function searchIndexJson(entries: SearchEntry[]): string {
  return `${JSON.stringify(entries.map((e) => [e.name, e.kind, e.url, e.aliases.join(' ')]))}\n`;
}

/**
 * The search box (in the page header; on the home page in the page, prominently). Hidden until a script
 * shows it: without JavaScript the navigation links to the specialty, state and residency lists are the way
 * in. A one-line script right after the box shows it while the page is parsed, before the first paint, so
 * the content under it does not move when the page's main script runs at the end (no layout shift).
 */
export function searchBox(indexUrl: string, o: { prominent?: boolean } = {}): string {
  return `<div class="site-search${o.prominent ? ' prominent' : ''}" data-search-index="${indexUrl}" hidden="">
<label for="site-search-q">Find a specialty, state or teaching hospital</label>
<input id="site-search-q" type="search" autocomplete="off" spellcheck="false" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="site-search-list" placeholder="e.g. cardiology, Texas, Mayo">
<ul id="site-search-list" role="listbox" aria-label="Matches" hidden=""></ul>
<p id="site-search-status" class="visually-hidden" role="status" aria-live="polite"></p>
</div><script>${SEARCH_SHOW_SCRIPT}</script>`;
}

/** Shows the search box as soon as it is parsed (the main search script then wires it up). */
export const SEARCH_SHOW_SCRIPT = `if(window.fetch)document.querySelector('.site-search').hidden=false;`;

/**
 * The search box's script: loads the index on first use (same origin, one small file, cached), matches
 * every typed word against the start of a word of the name or its aliases, shows up to 8 matches as a
 * listbox (arrow keys move, Enter opens, Escape closes), and announces the number of matches.
 */
export const SEARCH_SCRIPT = `(function(){var box=document.querySelector('.site-search');if(!box||!window.fetch)return;box.hidden=false;
var q=document.getElementById('site-search-q'),list=document.getElementById('site-search-list'),status=document.getElementById('site-search-status'),index=null,loading=null,active=-1,shown=[];
function load(){if(!loading)loading=fetch(box.getAttribute('data-search-index')).then(function(r){return r.json()}).then(function(d){index=d;return d});return loading}
function norm(s){return s.toLowerCase().normalize('NFD').replace(/[\\u0300-\\u036f]/g,'').replace(/[^a-z0-9]+/g,' ').trim()}
function matches(term){var words=norm(term).split(' ').filter(Boolean);if(!words.length)return[];var out=[];
for(var i=0;i<index.length&&out.length<8;i++){var e=index[i],hay=' '+norm(e[0]+' '+e[3]);if(words.every(function(w){return hay.indexOf(' '+w)>=0}))out.push(e)}return out}
function close(){list.hidden=true;q.setAttribute('aria-expanded','false');q.removeAttribute('aria-activedescendant');active=-1}
function mark(k){var items=list.querySelectorAll('[role=option]');for(var i=0;i<items.length;i++)items[i].setAttribute('aria-selected',i===k?'true':'false');active=k;if(k>=0){q.setAttribute('aria-activedescendant','site-search-o'+k)}else q.removeAttribute('aria-activedescendant')}
function render(){var term=q.value;if(!term.trim()){close();status.textContent='';return}
load().then(function(){if(q.value!==term)return;shown=matches(term);list.textContent='';
shown.forEach(function(e,k){var li=document.createElement('li');li.id='site-search-o'+k;li.setAttribute('role','option');li.setAttribute('aria-selected','false');
var a=document.createElement('a');a.href=e[2];a.tabIndex=-1;a.textContent=e[0];var s=document.createElement('span');s.className='kind';s.textContent=e[1];a.appendChild(s);li.appendChild(a);list.appendChild(li)});
list.hidden=!shown.length;q.setAttribute('aria-expanded',shown.length?'true':'false');active=-1;
status.textContent=shown.length?shown.length+(shown.length===8?' or more':'')+' matches: use the arrow keys and Enter to open one.':'No specialty, state or teaching hospital matches.'},function(){status.textContent='Search is not available.'})}
q.addEventListener('focus',load);q.addEventListener('input',render);
q.addEventListener('keydown',function(ev){var n=shown.length;if(ev.key==='ArrowDown'&&n){ev.preventDefault();if(list.hidden)render();mark((active+1)%n)}
else if(ev.key==='ArrowUp'&&n){ev.preventDefault();mark((active-1+n)%n)}
else if(ev.key==='Enter'){var k=active>=0?active:(n===1?0:-1);if(k>=0&&!list.hidden){ev.preventDefault();location.href=shown[k][2]}}
else if(ev.key==='Escape'){close()}});
document.addEventListener('click',function(ev){if(!box.contains(ev.target))close()});})();`;

/**
 * Sortable tables: every table marked data-sortable gets a button in each column header. Clicking it
 * (or Enter/Space on it) sorts the rows by that column, numbers by their data-value (withheld and
 * missing figures last), text by its words; a second click reverses. aria-sort says the order.
 */
export const SORT_SCRIPT = `(function(){var tables=document.querySelectorAll('table[data-sortable]');
function key(cell){if(!cell)return null;var v=cell.getAttribute('data-value');if(v===null){var f=cell.querySelector('[data-value]');v=f?f.getAttribute('data-value'):null}
if(v!==null){var x=Number(v);return v===''||isNaN(x)?null:x}return cell.textContent.trim().toLowerCase()}
Array.prototype.forEach.call(tables,function(t){var heads=t.querySelectorAll('thead th'),body=t.tBodies[0];if(!body)return;
var original=Array.prototype.slice.call(body.rows);
Array.prototype.forEach.call(heads,function(th,col){var b=document.createElement('button');b.type='button';b.className='sort';
while(th.firstChild)b.appendChild(th.firstChild);th.appendChild(b);
b.addEventListener('click',function(){var dir=th.getAttribute('aria-sort')==='ascending'?'descending':'ascending';
Array.prototype.forEach.call(heads,function(h){h.removeAttribute('aria-sort')});th.setAttribute('aria-sort',dir);
var rows=original.map(function(r,k){return{r:r,k:k,v:key(r.cells[col])}});
rows.sort(function(a,b){if(a.v===null||b.v===null)return a.v===null&&b.v===null?a.k-b.k:a.v===null?1:-1;
var c=typeof a.v==='number'&&typeof b.v==='number'?a.v-b.v:String(a.v).localeCompare(String(b.v));return(dir==='ascending'?c:-c)||a.k-b.k});
rows.forEach(function(x){body.appendChild(x.r)})})})});})();`;
