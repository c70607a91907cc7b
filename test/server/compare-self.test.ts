/**
 * A specialty compared with itself is no comparison (its reports would count twice in n): the open feed
 * compare/{a}/{a}.json and the page /compare/{a}/{a} are 404s that say so, also through an alias or a state;
 * two different specialties are served as before.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { get } from '../helpers/http.ts';
import { closeAfterAll, startTestServer } from '../helpers/server.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import type { RunningServer } from '../../server/main.ts';

const work = useGoldenDir('compare-self');
const closeLater = closeAfterAll();
let server: RunningServer;

beforeAll(async () => {
  server = closeLater(await startTestServer(work.dist, join(work.path, 'service.db'), { metrics: false }));
}, 60_000);

describe('compare of a specialty with itself', () => {
  it('the feed is a 404 naming the reason and the specialty\'s own feed', async () => {
    const base = server.registry.current!.baseUrl;
    const cases: [string, string][] = [
      ['/data/api/v1/compare/cardiology/cardiology.json', 'specialties/cardiology.json'],
      ['/data/api/v1/compare/CARDIOLOGY/cardiology.json', 'specialties/cardiology.json'],
      ['/data/api/v1/compare/obgyn/obstetrics-gynecology.json', 'specialties/obstetrics-gynecology.json'],
      ['/data/api/v1/compare/cardiology/cardiology/states/texas.json', 'specialties/cardiology/states/texas.json'],
    ];
    for (const [path, own] of cases) {
      const r = await get(server.url, path);
      expect(r.status, path).toBe(404);
      expect(r.json(), path).toEqual({ error: `a comparison needs two different specialties; both are ${own.startsWith('specialties/obstetrics') ? 'Obstetrics and Gynecology' : 'Cardiology'}: its own figures are at ${base}/data/api/v1/${own}` });
    }
  });

  it('the page is the site\'s 404; two different specialties are still compared', async () => {
    expect((await get(server.url, '/compare/cardiology/cardiology')).status).toBe(404);
    // a browser gets the site's 404 page, which links the specialty's own page
    const html = await get(server.url, '/compare/cardiology/cardiology', { accept: 'text/html' });
    expect(html.status).toBe(404);
    expect(html.text).toContain('/salaries/cardiology"');
    const pair = await get(server.url, '/data/api/v1/compare/cardiology/pediatrics.json');
    expect(pair.status).toBe(200);
    const doc = pair.json<{ n: number; specialty_a: { n: number }; specialty_b: { n: number } }>();
    expect(doc.n).toBe(doc.specialty_a.n + doc.specialty_b.n);
    expect((await get(server.url, '/compare/cardiology/pediatrics')).status).toBe(200);
  });
});
