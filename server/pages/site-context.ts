/** The page context (publisher, synthetic flag, licence, methodology bounds) of pages the server renders from a loaded build. */
import type { LoadedBuild } from '../builds/loaded-build.ts';
import { LICENSE, LICENSE_URL, feedPaths, type SpecialtiesFeed } from '../../build/contract/open-feeds.ts';
import type { SiteContext } from '../../build/pages/layout.ts';
import { DEFAULT_TOP_CODE } from '../../build/import/bls.ts';

const cache = new WeakMap<LoadedBuild, SiteContext>();

export function siteContextOf(build: LoadedBuild): SiteContext {
  let site = cache.get(build);
  if (site) return site;
  const file = build.files.get(`/${feedPaths.specialties()}`);
  const list = file ? (JSON.parse(build.render(file, build.manifest.build_date).body.toString('utf8')) as SpecialtiesFeed) : null;
  const m = build.keyedIndex.methodology;
  site = {
    baseUrl: build.baseUrl, publisher: list?.publisher ?? 'physpay', synthetic: list?.synthetic ?? false, license: LICENSE, licenseUrl: LICENSE_URL,
    winsorLower: m.winsor_lower, winsorUpper: m.winsor_upper, blsTopCode: DEFAULT_TOP_CODE,
  };
  cache.set(build, site);
  return site;
}
