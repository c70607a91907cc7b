/**
 * The site search's matcher (pure): one JavaScript source, shipped inline to the browser as is and turned
 * into the node function below with `new Function`, so the tests run the very code the pages run.
 *
 * Index entries (search-index.json, enhance.ts): [name, kind, url, aliases, related, extra], where aliases
 * and related are normalised phrases joined by "|" (related words only suggest, never match), and extra is,
 * for a specialty, the two-letter codes (lower case, run together) of the states with a specialty-in-state
 * page, or "-" and the codes of the states without one when that is shorter, and for a state, "r" when its page lists teaching hospitals (#residency).
 *
 * A query is normalised (lower case, no accents, "&" -> "and", punctuation -> space, "pgy 2" -> "pgy2"),
 * then tried as, best first:
 *  - residency words ("resident", "PGY-2") with a state -> that state's teaching hospitals; alone -> /residency;
 *    with a hospital's name -> the hospital; a level past PGY-1 that has pages ("PGY-3") alone -> its page
 *    (/residency/pgy/3), with a state -> the state's hospitals at every level (/residency/levels/{state});
 *  - a specialty and a state (name or code, before or after) -> the specialty-in-state page when published,
 *    else the specialty and the state;
 *  - every word starting a word of an entry's name or aliases (an exact name or alias first, then a name
 *    or alias starting with the query), and failing that, the same with one typo per word (two in words of
 *    7+ letters; fewer typos first).
 * With no match, suggestions: entries matching any one word of the query, or one of its related words.
 */

/** A match or suggestion: [name, kind, url]. */
export type SearchHit = [name: string, kind: string, url: string];

export interface SearchResult {
  matches: SearchHit[];
  suggestions: SearchHit[];
}

/** The matcher's source: defines `searchMatch(index, query, limit)`; ES5, no template literals. */
export const SEARCH_MATCH_JS = String.raw`function searchMatch(index,query,limit){
function norm(s){return String(s).toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g,'').replace(/&/g,' and ').replace(/['\u2019]/g,'').replace(/[^a-z0-9]+/g,' ').replace(/\bpgy (\d)\b/g,'pgy$1').trim()}
function dist(a,b){var p=[],c,i,j;for(j=0;j<=b.length;j++)p[j]=j;for(i=1;i<=a.length;i++){c=[i];for(j=1;j<=b.length;j++)c[j]=Math.min(p[j]+1,c[j-1]+1,p[j-1]+(a[i-1]===b[j-1]?0:1));p=c}return p[b.length]}
function fuzzy(w,hay){var m=w.length<4?0:w.length>6?2:1,hw=hay.split(' '),b=9;for(var i=0;m&&i<hw.length;i++){var h=hw[i];if(h.length+m>=w.length)b=Math.min(b,dist(w,h),dist(w,h.slice(0,w.length)))}return b<=m?b:9}
function phrases(e){return [norm(e[0])].concat(e[3]?e[3].split('|'):[])}
function score(e,ws){if(!ws.length)return 0;var q=ws.join(' '),ph=phrases(e),hay=' '+ph.join(' '),i,best=0;
for(i=0;i<ph.length;i++){if(ph[i]===q)return 4;if(ph[i].indexOf(q)===0)best=3}if(best)return best;
for(i=0;i<ws.length;i++)if(hay.indexOf(' '+ws[i])<0)break;if(i===ws.length)return 2;
var d=0;for(i=0;i<ws.length;i++)if(hay.indexOf(' '+ws[i])<0){var f=fuzzy(ws[i],hay);if(f>2)return 0;d+=f}return 1-d/10}
var ws=norm(query).split(' ').filter(function(w,i,a){return w&&!/^(pay|salary|salaries|wage|wages|income|compensation)$/.test(w)&&!(w==='in'&&i>0&&i<a.length-1)}),hits=[],seen={},k,e,s;
if(!ws.length||!index)return{matches:[],suggestions:[]};
function add(h,sc){if(seen[h[2]]===undefined){seen[h[2]]=hits.length;hits.push({h:[h[0],h[1],h[2]],s:sc,k:hits.length})}else if(hits[seen[h[2]]].s<sc)hits[seen[h[2]]].s=sc}
function kind(t){var o=[];for(var i=0;i<index.length;i++)if(index[i][1]===t)o.push(index[i]);return o}
var specs=kind('Specialty'),states=kind('State'),res=kind('Residency')[0];
var resWords=res?res[3].split('|'):[],rest=[],isRes=false,pgy=0;
for(k=0;k<ws.length;k++){if(resWords.indexOf(ws[k])>=0||/^pgy\d$/.test(ws[k])){isRes=true;if(/^pgy\d$/.test(ws[k]))pgy=+ws[k].charAt(3)}else rest.push(ws[k])}
if(res&&(pgy<2||pgy>+(res[5]||1)))pgy=0
function stateSplit(list){var out=[];for(var i=0;i<states.length;i++){var st=states[i],nw=norm(st[0]).split(' '),n=nw.length,code=st[3];
var at=function(from){var j;if(from<0||from+n>list.length)return false;for(j=0;j<n;j++)if(list[from+j]!==nw[j])return false;return true};
if(at(0))out.push({st:st,rest:list.slice(n),full:1});else if(at(list.length-n))out.push({st:st,rest:list.slice(0,list.length-n),full:1});
else if(list[0]===code)out.push({st:st,rest:list.slice(1)});else if(list[list.length-1]===code)out.push({st:st,rest:list.slice(0,-1)})}return out}
function slug(u){return u.slice(u.lastIndexOf('/')+1)}
if(isRes&&res){if(!rest.length){if(pgy)add(['PGY-'+pgy+' resident salaries by teaching hospital','Residency',res[2]+'/pgy/'+pgy],6.5);add(res,6)}
var sp=stateSplit(rest);for(k=0;k<sp.length;k++)if(!sp[k].rest.length){e=sp[k].st;if(pgy&&e[5]==='r')add(['Teaching hospitals in '+e[0]+' at every PGY level','Residency',res[2]+'/levels/'+slug(e[2])],6.5);add(e[5]==='r'?['Teaching hospitals in '+e[0],'Residency',e[2]+'#residency']:res,6)}
for(k=0;k<index.length;k++){e=index[k];if(e[1]==='Teaching hospital'&&(s=score(e,rest)))add(e,4+s/4)}add(res,4)}
var split=stateSplit(ws);for(k=0;k<split.length;k++){var c=split[k];if(!c.rest.length)continue;
for(var i=0;i<specs.length;i++){var sc=score(specs[i],c.rest);if(!sc)continue;e=specs[i];var code=c.st[3],cells=e[5]||'',not=cells.charAt(0)==='-',has=false;if(not)cells=cells.slice(1);
for(var j=0;j<cells.length;j+=2)if(cells.substr(j,2)===code)has=true;if(not)has=!has;
if(has)add([e[0]+' in '+c.st[0],'Specialty in state',e[2]+'/'+slug(c.st[2])],5+sc/8+(c.full?.01:0));else{add(e,4+sc/8);add(c.st,4+sc/8-.001)}}}
for(k=0;k<index.length;k++)if((s=score(index[k],ws)))add(index[k],s);
hits.sort(function(a,b){return b.s-a.s||a.k-b.k});
var matches=hits.slice(0,limit).map(function(x){return x.h}),sugg=[];
if(!matches.length){var best=[];for(k=0;k<index.length;k++){e=index[k];var bs=0,rel=e[4]?e[4].split('|'):[];
for(var w=0;w<ws.length;w++){if(ws[w].length<3)continue;var one=score(e,[ws[w]]);if(one>1&&one>bs)bs=one;if(rel.indexOf(ws[w])>=0&&bs<3.5)bs=3.5}
if(rel.indexOf(ws.join(' '))>=0)bs=5;if(bs)best.push({h:[e[0],e[1],e[2]],s:bs,k:k})}
best.sort(function(a,b){return b.s-a.s||a.k-b.k});sugg=best.slice(0,5).map(function(x){return x.h})}
return{matches:matches,suggestions:sugg}}`;

/** The node copy of the matcher: the same source, compiled once. */
export const searchMatch: (index: readonly (readonly string[])[], query: string, limit: number) => SearchResult =
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function(`${SEARCH_MATCH_JS}\nreturn searchMatch;`)() as never;
