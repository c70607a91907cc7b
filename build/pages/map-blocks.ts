/**
 * The US maps of the specialty pages and of /states (pure): the page's figures mapped to us-map.ts states.
 * A specialty page's map shows each state's cell feed (specialties/{slug}/states/{state}.json, named on each
 * state's link); /states shows the rows of states.json (the section's feed).
 */
import { RANKING_MIN_N, type SpecialtyStateFeed, type StatesFeed } from '../contract/open-feeds.ts';
import { FLOORS } from '../compute/stats.ts';
import { href, type SiteContext } from './layout.ts';
import { usMap } from './us-map.ts';
import { esc } from './html.ts';

const caption = (text: string) => `<figcaption>${esc(text)}</figcaption>`;

export function specialtyMapBlock(site: SiteContext, name: string, cells: SpecialtyStateFeed[]): string {
  const floor = FLOORS.specialtyInState;
  const published = cells.filter((c) => c.median !== null).length;
  const map = usMap({
    id: 'map',
    title: `${name}: median total compensation by state`,
    desc: `Map of the US: ${published} states with published medians are shaded by median; the others are hatched (fewer than ${floor} reports). The table below gives every state's figures.`,
    floor,
    states: cells.map((c) => ({
      code: c.state.code, name: c.state.name, n: c.n, median: c.median, href: href(c.citation_url, site.baseUrl), feed: c.feed_url, nField: 'n', medianField: 'median',
    })),
  });
  return `<figure>${map}${caption(`Median total compensation of ${name} in each state, five equal-width classes. Hover or focus a state for its median and n; select it for its page.`)}</figure>`;
}

export function statesMapBlock(site: SiteContext, f: StatesFeed): string {
  const floor = FLOORS.state;
  const map = usMap({
    id: 'map',
    title: 'Median physician total compensation by state, all specialties',
    desc: `Map of the US: states shaded by median total compensation (all specialties); hatched states have fewer than ${floor} reports. The table below gives every state's figures.`,
    floor,
    states: f.states.map((e, i) => ({
      code: e.state.code, name: e.state.name, n: e.n, median: e.median, href: href(e.citation_url, site.baseUrl), nField: `states[${i}].n`, medianField: `states[${i}].median`,
    })),
  });
  return `<figure>${map}${caption('Median total compensation (all specialties) in each state, five equal-width classes. Hover or focus a state for its median and n; select it for its page.')}</figure>`;
}

/**
 * The home page's map: the all-specialty median of states.json, coloured only where a state has at least
 * RANKING_MIN_N (15) reports; thinner states, published or not, are hatched as "not enough reports".
 */
export function homeMapBlock(site: SiteContext, f: StatesFeed): string {
  const minN = RANKING_MIN_N;
  const shown = f.states.filter((e) => e.median !== null && e.n !== null && e.n >= minN).length;
  const map = usMap({
    id: 'map',
    title: 'Median physician total compensation by state, all specialties',
    desc: `Map of the US: ${shown} states with ${minN} or more reports are shaded by median total compensation (all specialties); the others are hatched (not enough reports). The table after the map gives the same figures.`,
    floor: FLOORS.state,
    minN,
    states: f.states.map((e, i) => ({
      code: e.state.code, name: e.state.name, n: e.n, median: e.median, href: href(e.citation_url, site.baseUrl), nField: `states[${i}].n`, medianField: `states[${i}].median`,
    })),
  });
  return `<figure>${map}${caption(`Median total compensation (all specialties) of the ${shown} states with ${minN} or more reports, five equal-width classes; hatched states have fewer. These medians mix specialties. Hover or focus a state for its median and n; select it for its page.`)}</figure>`;
}
