/**
 * Finding things on the public site (pure): the site search box every page carries, the small search
 * index the build writes beside the pages (search-index.json), and the inline scripts that enhance the
 * box and make tables sortable. Both are progressive enhancements: without JavaScript the box is hidden
 * (the navigation links to the three index pages stay), and tables keep their default order.
 */
import { pagePaths, type InstitutionsFeed, type SpecialtiesFeed, type StatesFeed } from '../contract/open-feeds.ts';
import { normalizeName } from '../contract/names.ts';
import { RELATED_TERMS, RESIDENCY_TERMS } from '../contract/related-terms.ts';
import { SEARCH_MATCH_JS } from './search-match.ts';

/** Public-tree path (and URL path) of the search index. */
export const SEARCH_INDEX_FILE = 'search-index.json';

/** One search entry: name shown, kind, URL path, the words it answers to, the words it is suggested for. */
export interface SearchEntry {
  name: string;
  kind: 'Specialty' | 'State' | 'Teaching hospital' | 'Residency';
  url: string;
  /** normalised phrases also matched: a specialty's aliases (the reference data's), a state's code, a hospital's city */
  aliases: string[];
  /** normalised words that only suggest the entry (RELATED_TERMS) */
  related: string[];
  /** a specialty: the two-letter codes (lower case, run together) of its specialty-in-state pages, or "-" and those of the states without one when shorter; a state: "r" when its page lists teaching hospitals */
  extra: string;
}

/** What the index needs beyond the three list feeds. */
export interface SearchIndexInput {
  /** specialty slug -> its spellings (the reports DB's, as the tool server resolves them) */
  specialtyAliases: ReadonlyMap<string, readonly string[]>;
  /** specialty slug -> state codes with a specialty-in-state page */
  cells: ReadonlyMap<string, readonly string[]>;
  /** state slugs whose page lists teaching hospitals */
  residencyStates: ReadonlySet<string>;
  /** the highest PGY level with a page of its own (/residency/pgy/{n}, and /residency/levels/{state}); 1 when none */
  maxPgy?: number;
}

/** The states with a specialty-in-state page, as codes run together, or "-" and the states without one when that is shorter. */
export function cellCodes(withPage: readonly string[], all: readonly string[]): string {
  const has = new Set(withPage.map((c) => c.toLowerCase()));
  const yes = [...has].sort();
  const no = [...new Set(all.map((c) => c.toLowerCase()))].filter((c) => !has.has(c)).sort();
  return no.length < yes.length ? `-${no.join('')}` : yes.join('');
}

/** Every specialty, state and teaching hospital, in that order, each by name (code-point order), then the residency entry. */
export function searchIndex(baseUrl: string, sp: SpecialtiesFeed, st: StatesFeed, inst: InstitutionsFeed, o: SearchIndexInput): SearchEntry[] {
  const href = (url: string, base: string) => (url.startsWith(`${base}/`) ? url.slice(base.length) : url);
  const byName = (a: SearchEntry, b: SearchEntry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const phrases = (name: string, list: readonly string[]) => [...new Set(list.map(normalizeName))].filter((a) => a && a !== normalizeName(name));
  const specialties = sp.specialties.map((e): SearchEntry => ({
    name: e.name, kind: 'Specialty', url: href(e.citation_url, baseUrl),
    aliases: phrases(e.name, [e.slug, ...(o.specialtyAliases.get(e.slug) ?? [])]),
    related: phrases(e.name, RELATED_TERMS[e.slug] ?? []),
    extra: cellCodes(o.cells.get(e.slug) ?? [], st.states.map((x) => x.state.code)),
  }));
  const states = st.states.map((e): SearchEntry => ({
    name: e.state.name, kind: 'State', url: href(e.citation_url, baseUrl), aliases: [e.state.code.toLowerCase()], related: [], extra: o.residencyStates.has(e.state.slug) ? 'r' : '',
  }));
  const hospitals = inst.institutions.map((e): SearchEntry => ({
    name: e.institution.name, kind: 'Teaching hospital', url: href(e.citation_url, baseUrl),
    aliases: [`${e.institution.city} ${e.institution.state.code}`, e.institution.state.name].map(normalizeName), related: [], extra: '',
  }));
  // extra: the highest PGY level with pages (PGY-2 and up), when there is one
  const residency: SearchEntry = { name: 'Resident pay at teaching hospitals', kind: 'Residency', url: pagePaths.institutionsIndex(), aliases: [...RESIDENCY_TERMS], related: [], extra: (o.maxPgy ?? 1) > 1 ? String(o.maxPgy) : '' };
  // One entry per URL (a hospital lists one scale per academic year).
  const seen = new Set<string>();
  return [...specialties.sort(byName), ...states.sort(byName), ...hospitals.sort(byName), residency].filter((e) => !seen.has(e.url) && seen.add(e.url));
}

/** The search index file: compact JSON, one array of [name, kind, url, aliases, related, extra] (search-match.ts), empty trailing fields left out. */
export function searchIndexJson(entries: SearchEntry[]): string {
  const row = (e: SearchEntry) => {
    const r = [e.name, e.kind, e.url, e.aliases.join('|'), e.related.join('|'), e.extra];
    while (r.length > 3 && r[r.length - 1] === '') r.pop();
    return r;
  };
  return `${JSON.stringify(entries.map(row))}\n`;
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
<input id="site-search-q" type="search" autocomplete="off" spellcheck="false" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="site-search-list" placeholder="e.g. peds, cardiology TX, PGY-2">
<ul id="site-search-list" role="listbox" aria-label="Matches" hidden=""></ul>
<div id="site-search-none" class="search-none" hidden=""></div>
<p id="site-search-status" class="visually-hidden" role="status" aria-live="polite"></p>
</div><script>${SEARCH_SHOW_SCRIPT}</script>`;
}

/** Shows the search box as soon as it is parsed (the main search script then wires it up). */
export const SEARCH_SHOW_SCRIPT = `if(window.fetch)document.querySelector('.site-search').hidden=false;`;

/**
 * The search box's script: loads the index on first use (same origin, one small file, cached), matches with
 * search-match.ts (shipped here as is), shows up to 8 matches as a listbox (arrow keys move, Enter opens
 * the selected match or else the first, Escape closes; a click opens one; options hold no links, which a
 * listbox may not nest) and announces the number of matches. With no match
 * it says so visibly, with links to the closest entries (search-match.ts's suggestions).
 */
export const SEARCH_SCRIPT = `(function(){var box=document.querySelector('.site-search');if(!box||!window.fetch)return;box.hidden=false;
${SEARCH_MATCH_JS}
var q=document.getElementById('site-search-q'),list=document.getElementById('site-search-list'),none=document.getElementById('site-search-none'),status=document.getElementById('site-search-status'),index=null,loading=null,active=-1,shown=[];
function load(){if(!loading)loading=fetch(box.getAttribute('data-search-index')).then(function(r){return r.json()}).then(function(d){index=d;return d});return loading}
function close(){list.hidden=true;none.hidden=true;q.setAttribute('aria-expanded','false');q.removeAttribute('aria-activedescendant');active=-1}
function mark(k){var items=list.querySelectorAll('[role=option]');for(var i=0;i<items.length;i++)items[i].setAttribute('aria-selected',i===k?'true':'false');active=k;if(k>=0){q.setAttribute('aria-activedescendant','site-search-o'+k)}else q.removeAttribute('aria-activedescendant')}
function link(e){var a=document.createElement('a');a.href=e[2];a.textContent=e[0];return a}
function render(){var term=q.value;if(!term.trim()){close();status.textContent='';return}
load().then(function(){if(q.value!==term)return;var r=searchMatch(index,term,8);shown=r.matches;list.textContent='';none.textContent='';
shown.forEach(function(e,k){var li=document.createElement('li');li.id='site-search-o'+k;li.setAttribute('role','option');li.setAttribute('aria-selected','false');li.textContent=e[0];var s=document.createElement('span');s.className='kind';s.textContent=e[1];li.appendChild(s);li.addEventListener('click',function(){location.href=e[2]});list.appendChild(li)});
list.hidden=!shown.length;none.hidden=!!shown.length;q.setAttribute('aria-expanded',shown.length?'true':'false');active=-1;
if(!shown.length){var p=document.createElement('p');p.textContent='Nothing matches \u201c'+term.trim()+'\u201d.'+(r.suggestions.length?' Closest:':' Try a specialty, a state or a teaching hospital.');none.appendChild(p);
if(r.suggestions.length){var ul=document.createElement('ul');r.suggestions.forEach(function(e){var li=document.createElement('li');li.appendChild(link(e));ul.appendChild(li)});none.appendChild(ul)}}
status.textContent=shown.length?shown.length+(shown.length===8?' or more':'')+' matches: Enter opens the first, or use the arrow keys.':'No specialty, state or teaching hospital matches.'+(r.suggestions.length?' Closest: '+r.suggestions.map(function(e){return e[0]}).join(', ')+'.':'')},function(){status.textContent='Search is not available.'})}
q.addEventListener('focus',load);q.addEventListener('input',render);
q.addEventListener('keydown',function(ev){var n=shown.length;if(ev.key==='ArrowDown'&&n){ev.preventDefault();if(list.hidden)render();mark((active+1)%n)}
else if(ev.key==='ArrowUp'&&n){ev.preventDefault();mark((active-1+n)%n)}
else if(ev.key==='Enter'){if(n&&!list.hidden){ev.preventDefault();location.href=shown[active>=0?active:0][2]}}
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
