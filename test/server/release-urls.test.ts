/**
 * Every release addressable (README: Releases, "Every release addressable"): three nightly builds of the
 * golden DB, the second and third adding 2025 cardiology reports in California, served by one real server
 * that follows them. A release URL keeps serving the same bytes (and ETag) after two more builds; the
 * documents whose figures changed get a new release, `modified`, release URL and citation line, and those that
 * did not keep theirs, which still resolve after the release's own build is pruned; the tool server answers a
 * call naming a release with that release's figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { FIXED_NOW, goldenBuild, goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { startTestServer } from '../helpers/server.ts';
import { get } from '../helpers/http.ts';
import { openReportsDb } from '../../build/db/open.ts';
import { buildsDir } from '../../build/emit/store.ts';
import type { RunningServer } from '../../server/main.ts';
import type { ReleasesFeed } from '../../build/contract/releases.ts';
import { callTool, connectClient, okResult } from '../mcp/mcp-helpers.ts';

const DAY = 86_400_000;
const V1 = '/data/api/v1';
const R1 = '2026-11-16';
const FILES = ['specialties/cardiology.json', 'specialties/cardiology/states/california.json', 'specialties.json', 'specialties.csv', 'specialty-states.csv', 'datapackage.json', 'physpay-open-data.tar.gz', 'CITATION.cff'];

const tmp = useTempDir('release-urls');
let db: string;
let out: string;
let server: RunningServer;
let client: Client;
const first = new Map<string, { body: Buffer; etag: string }>();

function addCardiology(totals: number[], submitted: string): void {
  const d = openReportsDb(db);
  try {
    const id = (d.prepare('SELECT id FROM specialties WHERE slug = ?').get('cardiology') as { id: number }).id;
    const ins = d.prepare(`INSERT INTO reports (specialty_id, state, year, total_compensation, hours_per_week, practice_setting, employment_type, submitted_at, status, moderated_at)
      VALUES (?, 'CA', 2025, ?, 50, 'hospital', 'employed', ?, 'approved', ?)`);
    d.transaction(() => { for (const t of totals) ins.run(id, t, submitted, submitted); })();
  } finally {
    d.close();
  }
}

async function nextNight(k: number, totals: number[], keep = 7): Promise<void> {
  addCardiology(totals, new Date(FIXED_NOW.getTime() + (k - 1) * DAY + 3_600_000).toISOString());
  const day = new Date(FIXED_NOW.getTime() + k * DAY);
  goldenBuild(db, out, { buildDate: day.toISOString().slice(0, 10), now: () => day, keep });
  await server.registry.check();
}

beforeAll(async () => {
  out = join(tmp.path, 'dist');
  db = goldenBuildIn(tmp.path, out).db; // the run's shared golden build, copied
  server = await startTestServer(out, join(tmp.path, 'service.db'), { clock: () => new Date('2026-11-28T12:00:00Z') });
  for (const f of FILES) {
    const r = await get(server.url, `${V1}/releases/${R1}/${f}`);
    expect(r.status, f).toBe(200);
    first.set(f, { body: r.body, etag: String(r.headers.etag) });
  }
  client = await connectClient(server.url);
  await nextNight(1, [455_000, 462_000, 470_000]);
  await nextNight(2, [480_000, 490_000]);
}, 240_000);

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('every release addressable', () => {
  it('a release URL serves the same bytes and ETag after two more builds, immutable and long-cached', async () => {
    const releases = (await get(server.url, `${V1}/releases.json`)).json<ReleasesFeed>();
    expect(releases.releases.map((r) => r.release)).toEqual(['2026-11-18', '2026-11-17', R1]);
    expect(releases.kept).toEqual(['2026-11-18', '2026-11-17', R1]);
    for (const f of FILES) {
      const r = await get(server.url, `${V1}/releases/${R1}/${f}`);
      expect(r.status, f).toBe(200);
      expect(r.body.equals(first.get(f)!.body), f).toBe(true);
      expect(r.headers.etag, f).toBe(first.get(f)!.etag);
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(r.headers['x-physpay-release']).toBe(R1);
      const again = await get(server.url, `${V1}/releases/${R1}/${f}`, { 'if-none-match': String(r.headers.etag) });
      expect(again.status, f).toBe(304);
    }
    // the release's archive is the one releases.json names, by URL and checksum
    const entry = releases.releases.find((r) => r.release === R1)!;
    expect(entry.urls!.archive).toBe(`https://physpay.example${V1}/releases/${R1}/physpay-open-data.tar.gz`);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(first.get('physpay-open-data.tar.gz')!.body).digest('hex')).toBe(entry.archive_sha256);
    expect(createHash('sha256').update(first.get('datapackage.json')!.body).digest('hex')).toBe(entry.datapackage_sha256);
    // CITATION.cff cites the release's own archive
    expect(first.get('CITATION.cff')!.body.toString()).toContain(`${V1}/releases/${R1}/physpay-open-data.tar.gz`);
  });

  it('figures that changed have a new release, modified date and citation line; unchanged documents keep theirs', async () => {
    const then = JSON.parse(first.get('specialties/cardiology/states/california.json')!.body.toString());
    const now = (await get(server.url, `${V1}/specialties/cardiology/states/california.json`)).json<Record<string, any>>();
    expect(now.n).not.toBe(then.n);
    expect(then.release).toBe(R1);
    expect(now.release).toBe('2026-11-18');
    expect(now.modified).toBe('2026-11-18');
    expect(now.release_url).toBe(`https://physpay.example${V1}/releases/2026-11-18/specialties/cardiology/states/california.json`);
    expect(now.attribution).toContain(`release 2026-11-18, ${now.release_url}; accessed 2026-11-28)`);
    expect(then.attribution).toContain(`release ${R1}, https://physpay.example${V1}/releases/${R1}/specialties/cardiology/states/california.json; accessed ${R1})`);
    expect(now.attribution).not.toBe(then.attribution.replace(`accessed ${R1}`, 'accessed 2026-11-28'));
    // the current document's own release URL serves the current figures
    const cited = (await get(server.url, `${V1}/releases/2026-11-18/specialties/cardiology/states/california.json`)).json<Record<string, any>>();
    expect(cited.median).toBe(now.median);
    // a state cell no report touched kept its release, date and line
    const tx = (await get(server.url, `${V1}/specialties/family-medicine/states/texas.json`)).json<Record<string, any>>();
    expect(tx.release).toBe(R1);
    expect(tx.modified).toBe(R1);
  });

  it('an unchanged document\'s release URL resolves after its release\'s build is pruned; a changed one is a 404 naming the kept releases', async () => {
    await nextNight(3, [500_000], 2);
    const ids = (await import('node:fs')).readdirSync(buildsDir(out)).filter((n) => !n.startsWith('.'));
    expect(ids).toHaveLength(2);
    const tx = await get(server.url, `${V1}/releases/${R1}/specialties/family-medicine/states/texas.json`);
    expect(tx.status).toBe(200);
    expect(tx.json<{ release: string }>().release).toBe(R1);
    const gone = await get(server.url, `${V1}/releases/${R1}/specialties/cardiology/states/california.json`);
    expect(gone.status).toBe(404);
    expect(gone.json<{ error: string; kept: string[] }>()).toMatchObject({ kept: ['2026-11-19', '2026-11-18'] });
    expect(gone.json<{ error: string }>().error).toMatch(/not kept here/);
    expect((await get(server.url, `${V1}/releases/1999-01-01/specialties.json`)).status).toBe(404);
    expect((await get(server.url, `${V1}/releases/../specialties.json`)).status).toBe(400); // a dot segment is a malformed path
    expect(existsSync(join(buildsDir(out), ids[0]!))).toBe(true);
  });

  it('a tool call naming a release answers with that release\'s figures and citation', async () => {
    const latest = okResult<Record<string, any>>(await callTool(client, 'get_specialty_pay', { specialty: 'Cardiology', state: 'CA' })).doc;
    const older = okResult<Record<string, any>>(await callTool(client, 'get_specialty_pay', { specialty: 'Cardiology', state: 'CA', release: '2026-11-18' })).doc;
    const served = (await get(server.url, `${V1}/releases/2026-11-18/specialties/cardiology/states/california.json`)).json<Record<string, any>>();
    expect(older).toEqual(served);
    expect(latest.release).toBe('2026-11-19');
    expect(latest.n).not.toBe(older.n);
    const r = await callTool(client, 'get_specialty_pay', { specialty: 'Cardiology', release: R1 });
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r.content)).toMatch(/not kept here.*2026-11-19, 2026-11-18/);
  });
});
