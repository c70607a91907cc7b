/** /residency/{institution-slug}: one teaching hospital's published PGY scale (residency/institutions/{slug}.json). */
import type { InstitutionFeed } from '../contract/open-feeds.ts';
import { pgySvg } from './chart.ts';
import { attrs, esc, fmtMoney } from './html.ts';
import { fig, textFig } from './figures.ts';
import { citeBlock, figure, link, page, residencyCaveat, table, type SiteContext } from './layout.ts';

/**
 * "3 of 41"; a rank among only a few scales says so ("2 of 2: only 2 scales of 2025-2026 are published"),
 * since "2 of 2" alone reads like a verdict.
 */
function rankCell(field: string, r: { position: number; of: number } | null, year: string): string {
  if (!r) return '<span class="na">not ranked</span>';
  const few = r.of < 5 ? `<br><span class="meta">only ${esc(String(r.of))} scale${r.of === 1 ? '' : 's'} of ${esc(year)} published</span>` : '';
  return `${fig(`${field}.position`, r.position, 'rank')} of ${fig(`${field}.of`, r.of, 'rank')}${few}`;
}

/** The feed's rank basis is a clause without a full stop: end it before the next sentence. */
const sentence = (t: string) => (/[.!?]$/.test(t) ? t : `${t}.`);

export function renderInstitutionPage(site: SiteContext, f: InstitutionFeed): string {
  const inst = f.institution;
  const svg = pgySvg(
    { id: 'pgy', title: `${inst.name}: resident salary by postgraduate year`, desc: f.pgy_scale.map((s) => `PGY-${s.pgy} ${fmtMoney(s.salary)}`).join(', ') },
    f.pgy_scale,
    (k) => `pgy_scale[${k}].salary`,
  );
  const scale = table(
    `${inst.name}: annual salary by postgraduate year, ${f.academic_year}`,
    ['Postgraduate year', 'Annual salary'],
    f.pgy_scale.map((s, k) => `<tr><th scope="row">PGY-${esc(s.pgy)}</th>${fig(`pgy_scale[${k}].salary`, s.salary, 'usd', { tag: 'td', className: 'num' })}</tr>`),
  );
  const col = f.cost_of_living;
  const rankRows = [
    `<tr><th scope="row">PGY-1 salary</th>${fig('pgy1_salary', f.pgy1_salary, 'usd', { tag: 'td', className: 'num' })}</tr>`,
    `<tr><th scope="row">Cost-of-living index of ${esc(inst.state.name)} (US = 100)</th>${fig('cost_of_living.index', col.index, 'index', { tag: 'td', className: 'num' })}</tr>`,
    `<tr><th scope="row">PGY-1 salary adjusted for cost of living</th>${fig('pgy1_col_adjusted', f.pgy1_col_adjusted, 'usd', { tag: 'td', className: 'num' })}</tr>`,
    `<tr><th scope="row">National rank among ${esc(f.academic_year)} scales (adjusted PGY-1)</th><td class="num">${rankCell('rank', f.rank, f.academic_year)}</td></tr>`,
    `<tr><th scope="row">Rank in ${esc(inst.state.name)} among ${esc(f.academic_year)} scales</th><td class="num">${rankCell('state_rank', f.state_rank, f.academic_year)}</td></tr>`,
  ];
  const body = `<article${attrs({ 'data-feed': f.feed_url })}>
<h1>${esc(inst.name)} resident salaries</h1>
<p class="lead">PGY-1 salary for ${textFig('academic_year', f.academic_year)}: <strong>${fig('pgy1_salary', f.pgy1_salary, 'usd')}</strong></p>
<p>${esc(inst.city)}, ${link(site, `${site.baseUrl}/states/${inst.state.slug}`, inst.state.name)}. Source: ${link(site, f.source_url, 'the hospital\'s published pay scale', { rel: 'nofollow' })}, checked ${textFig('as_of', f.as_of, 'time', { datetime: f.as_of })}.</p>
${residencyCaveat(site)}
<h2>Pay scale</h2>
${figure(svg, 'Annual salary at each postgraduate year (PGY) of residency.')}
${scale}
<h2>Cost of living and rank</h2>
${table(`${inst.name}: PGY-1 salary adjusted for cost of living`, ['Measure', 'Value'], rankRows)}
<p class="meta">${esc(sentence(f.rank?.basis ?? 'Ranked by PGY-1 salary divided by the state cost-of-living index / 100.'))} Cost of living: ${esc(col.source ?? 'not available')}${col.year !== null ? `, ${esc(col.year)}` : ''}.</p>
<p>${link(site, `${site.baseUrl}/residency`, 'All teaching hospitals')}</p>
${citeBlock(site, f, 'attr')}
</article>`;
  return page(site, {
    title: `${inst.name} resident salaries`,
    description: `Resident salaries at ${inst.name} (${inst.city}, ${inst.state.code}) by postgraduate year, ${f.academic_year}; PGY-1 ${fmtMoney(f.pgy1_salary)}.`,
    canonical: f.citation_url,
    feeds: [f.feed_url],
    body,
  });
}
