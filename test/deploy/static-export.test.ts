/**
 * `physpay export` end to end: a small demo build is exported through the CLI, the export is served by
 * Debian's nginx with the exported nginx.conf, the same build by `physpay serve`, and every URL under
 * /data/api/v1 in the export (plus a sample of pages and other files) must come back from both with the
 * same bytes, ETag, Content-Type, Cache-Control, CORS headers, nosniff and build id; nginx must answer a
 * conditional GET with 304 and the ETag; every alias in _redirects must answer 301 with its canonical
 * Location on nginx (and, for a sample, resolve to the same place on physpay serve).
 *
 * Needs nginx (apt-get install nginx-light). Without it the suite is skipped, unless CI is set: then it fails.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { get, request, waitFor, type HttpResponse } from '../helpers/http.ts';
import { listFiles } from '../helpers/tree.ts';
import { BIN, spawnServe, type ServeProcess } from '../server/serve-process.ts';
import { utcDay } from '../../server/http/clock.ts';
import { S3Metadata } from '../../server/export/s3.ts';
import { MANIFEST_FILES } from '../../server/export/plan.ts';

const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'].find((p) => existsSync(p)) ?? null;
const IN_CI = Boolean(process.env.CI);
const BASE_URL = 'https://physpay.example'; // goldenBuild's base URL
/** Headers that must be equal on nginx and on physpay serve for every file. */
const COMPARED = ['content-type', 'etag', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers', 'x-content-type-options', 'x-physpay-build'];

const title = NGINX || IN_CI
  ? 'physpay export served by nginx answers like physpay serve'
  : 'physpay export served by nginx (SKIPPED: nginx is not installed; apt-get install nginx-light, or set CI=1 to make this a failure)';

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 24 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Run `fn` over `items`, `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

/** The URL a file of the export answers (static hosts: $uri, $uri.html, $uri/index.html). */
function urlOf(file: string): string {
  if (file === 'index.html') return '/';
  if (file.endsWith('/index.html')) return `/${file.slice(0, -'/index.html'.length)}`;
  if (file.endsWith('.html')) return `/${file.slice(0, -'.html'.length)}`;
  return `/${file}`;
}

describe.skipIf(!NGINX && !IN_CI)(title, () => {
  const tmp = useTempDir('export');
  let work: string;
  let out: string;
  let nginx: ChildProcess | null = null;
  let nginxExited: Promise<void> | null = null;
  let nginxLog = '';
  let serve: ServeProcess | null = null;
  let nginxBase: string;
  let exported: { status: string; build_id: string; access_date: string; files: number; feeds: number; redirects: number; bytes: number; manifests: Record<string, number> };
  let files: string[];
  let gzFiles: string[] = [];
  let gzipped = 0;

  beforeAll(async () => {
    if (!NGINX) throw new Error('nginx is not installed and CI is set: install it (apt-get install nginx-light) so the static export can be checked');
    work = tmp.path;
    const { dist } = goldenBuildIn(work);
    // physpay serve loads the build while the export runs
    const serving = spawnServe(['--data', dist, '--service-db', join(work, 'service.db'), '--port', '0', '--poll-ms', '60000', '--log-level', 'warn', '--ip-per-minute', '100000', '--ip-per-day', '1000000']);

    out = join(work, 'site');
    mkdirSync(out);
    writeFileSync(join(out, 'stray.txt'), 'left from before\n');
    const refused = await run(['export', '--data', dist, '--out', out]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/--out .* is not empty \(1 entry\); give an empty or new folder, or --force to replace its contents/);
    const day = utcDay(new Date());
    const r = await run(['export', '--data', dist, '--out', out, '--force', '--json']);
    expect(r.code, r.stderr).toBe(0);
    exported = JSON.parse(r.stdout) as typeof exported;
    expect(exported.access_date, 'the UTC day changed while the test ran; run it again').toBe(day);
    const all = listFiles(out);
    const present = new Set(all);
    gzFiles = all.filter((f) => f.endsWith('.gz') && present.has(f.slice(0, -3)));
    // the .gz beside a file is its gzip representation, not a URL of its own
    files = all.filter((f) => !(MANIFEST_FILES as readonly string[]).includes(f) && !(f.endsWith('.gz') && present.has(f.slice(0, -3))));

    const port = await freePort();
    const conf = join(work, 'nginx-test.conf');
    writeFileSync(conf, [
      'daemon off;',
      'master_process off;',
      ...(process.getuid?.() === 0 ? ['user root;'] : []), // the export lies under a 0700 temp folder
      'worker_processes 1;',
      `pid ${join(work, 'nginx.pid')};`,
      `error_log ${join(work, 'nginx-error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(work, `nginx-${t}`)};`),
      '  server {',
      `    listen 127.0.0.1:${port};`,
      `    root ${out};`,
      `    include ${join(out, 'nginx.conf')};`,
      '    location / { return 404; }',
      '  }',
      '}',
      '',
    ].join('\n'));
    nginx = spawn(NGINX, ['-e', join(work, 'nginx-error.log'), '-p', work, '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx.stdout!.on('data', (c: Buffer) => (nginxLog += c.toString()));
    nginx.stderr!.on('data', (c: Buffer) => (nginxLog += c.toString()));
    nginxExited = new Promise((resolve) => nginx!.once('exit', () => resolve()));
    nginxBase = `http://127.0.0.1:${port}`;
    await waitFor('nginx to listen', async () => {
      if (nginx!.exitCode !== null) {
        const log = existsSync(join(work, 'nginx-error.log')) ? readFileSync(join(work, 'nginx-error.log'), 'utf8') : '';
        throw new Error(`nginx exited (${nginx!.exitCode}): ${nginxLog}${log}`.slice(-3000));
      }
      return (await get(nginxBase, '/nginx.conf')).status === 404;
    }, 20_000, 50);
    serve = await serving;
  }, 60_000);

  afterAll(async () => {
    await serve?.stop();
    if (nginx && nginx.exitCode === null && nginx.signalCode === null) {
      nginx.kill('SIGTERM');
      const timer = setTimeout(() => nginx!.kill('SIGKILL'), 5_000);
      await nginxExited;
      clearTimeout(timer);
    }
  });

  /** GET `url` from both servers and list what differs (empty when they agree). */
  async function compare(url: string): Promise<string[]> {
    const [a, b] = await Promise.all([get(nginxBase, url), get(serve!.url, url)]);
    const problems: string[] = [];
    if (a.status !== 200 || b.status !== 200) return [`${url}: status ${a.status} from nginx, ${b.status} from physpay serve`];
    if (!a.body.equals(b.body)) problems.push(`${url}: bodies differ (${a.body.length} and ${b.body.length} bytes)`);
    for (const h of COMPARED) if (a.headers[h] !== b.headers[h]) problems.push(`${url}: ${h} ${JSON.stringify(a.headers[h])} from nginx, ${JSON.stringify(b.headers[h])} from physpay serve`);
    const etag = a.headers.etag;
    if (!etag) return [...problems, `${url}: no ETag from nginx`];
    const c: HttpResponse = await get(nginxBase, url, { 'if-none-match': etag });
    if (c.status !== 304) problems.push(`${url}: If-None-Match ${etag} got ${c.status} from nginx, not 304`);
    if (c.headers.etag !== etag) problems.push(`${url}: nginx's 304 carries ETag ${JSON.stringify(c.headers.etag)}`);
    if (c.headers['cache-control'] !== b.headers['cache-control']) problems.push(`${url}: nginx's 304 carries Cache-Control ${JSON.stringify(c.headers['cache-control'])}`);
    if (c.body.length) problems.push(`${url}: nginx's 304 has a body`);
    // the gzip representation: the same bytes and ETag from both, and nginx's 304 for its ETag
    const [ga, gb] = await Promise.all([get(nginxBase, url, { 'accept-encoding': 'gzip, deflate' }), get(serve!.url, url, { 'accept-encoding': 'gzip, deflate' })]);
    if (ga.headers['content-encoding'] !== gb.headers['content-encoding']) problems.push(`${url}: Content-Encoding ${JSON.stringify(ga.headers['content-encoding'])} from nginx, ${JSON.stringify(gb.headers['content-encoding'])} from physpay serve`);
    if (gb.headers['content-encoding'] === 'gzip') {
      gzipped++;
      if (!ga.body.equals(gb.body)) problems.push(`${url}: gzip bodies differ (${ga.body.length} and ${gb.body.length} bytes)`);
      if (!gunzipSync(ga.body).equals(a.body)) problems.push(`${url}: nginx's gzip does not decompress to the file`);
      for (const h of [...COMPARED, 'vary']) if (ga.headers[h] !== gb.headers[h]) problems.push(`${url}: gzip ${h} ${JSON.stringify(ga.headers[h])} from nginx, ${JSON.stringify(gb.headers[h])} from physpay serve`);
      if (ga.headers.etag === etag) problems.push(`${url}: the gzip representation has the identity ETag`);
      const g304 = await get(nginxBase, url, { 'accept-encoding': 'gzip', 'if-none-match': String(ga.headers.etag) });
      if (g304.status !== 304 || g304.headers.etag !== ga.headers.etag) problems.push(`${url}: nginx answers the gzip ETag with ${g304.status}`);
      if ((await get(nginxBase, url, { 'if-none-match': String(ga.headers.etag) })).status !== 200) problems.push(`${url}: nginx answers the gzip ETag without Accept-Encoding with a 304`);
    }
    return problems;
  }

  it('writes one summary with the counts, the tree at the root and the four manifests beside it', () => {
    expect(exported).toMatchObject({ status: 'exported', files: files.length });
    expect(Object.keys(exported.manifests)).toEqual([...MANIFEST_FILES]);
    expect(files).not.toContain('stray.txt'); // --force replaced the folder's contents
    expect(files).toContain('index.html');
    expect(files).toContain('salaries/cardiology.html');
    expect(files).toContain('salaries/cardiology/texas.html');
    expect(files).toContain('data/api/v1/openapi.json');
    expect(files).toContain('data/api/v1/schemas/specialty.schema.json');
    expect(exported.feeds).toBe(files.filter((f) => f.startsWith('data/api/v1/')).length);
  });

  it('serves every feed and contract document like physpay serve, with 304s for physpay\'s ETag', async () => {
    const feeds = files.filter((f) => f.startsWith('data/api/v1/')).map((f) => `/${f}`);
    expect(feeds.length).toBeGreaterThan(2500);
    const problems: string[] = [];
    await pool(feeds, 24, async (url) => {
      problems.push(...(await compare(url)));
    });
    expect(problems.slice(0, 20), `${problems.length} differences in ${feeds.length} feeds`).toEqual([]);
    expect(gzipped).toBeGreaterThan(2500); // nearly every feed has a gzip representation
    expect(utcDay(new Date()), 'the UTC day changed while the test ran; run it again').toBe(exported.access_date);
  }, 60_000);

  it('serves pages at their extensionless URLs, and the other files, like physpay serve', async () => {
    const html = files.filter((f) => f.endsWith('.html'));
    const sample = new Set(['/', '/salaries', '/states', '/residency', '/methodology', '/license', '/salaries/cardiology', '/salaries/cardiology/texas', '/states/texas']);
    html.forEach((f, i) => i % 40 === 0 && sample.add(urlOf(f)));
    for (const f of files) if (!f.startsWith('data/') && !f.endsWith('.html')) sample.add(urlOf(f)); // favicon, robots.txt, sitemap.xml, ...
    for (const url of sample) expect(files.map(urlOf), url).toContain(url);
    const problems: string[] = [];
    await pool([...sample], 16, async (url) => {
      problems.push(...(await compare(url)));
    });
    expect(problems.slice(0, 20), `${problems.length} differences in ${sample.size} pages and files`).toEqual([]);
  }, 30_000);

  it('does not serve the .gz files at URLs of their own', async () => {
    expect(gzFiles.length).toBeGreaterThan(2500);
    for (const f of gzFiles.slice(0, 50)) expect((await get(nginxBase, `/${f}`)).status, f).toBe(404);
  });

  it('does not serve the manifests', async () => {
    for (const name of MANIFEST_FILES) expect((await get(nginxBase, `/${name}`)).status, name).toBe(404);
  });

  it('redirects every alias in _redirects with a 301 to the canonical URL physpay serve resolves it to', async () => {
    const lines = readFileSync(join(out, '_redirects'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
    const redirects = lines.map((l) => {
      const [from, to, status] = l.split(' ');
      expect(status, l).toBe('301');
      return { from: from!, to: to! };
    });
    expect(redirects.length).toBe(exported.redirects);
    const map = new Map(redirects.map((r) => [r.from, r.to]));
    expect(map.get('/data/api/v1/states/TX.json')).toBe('/data/api/v1/states/texas.json');
    expect(map.get('/data/api/v1/states/tx.json')).toBe('/data/api/v1/states/texas.json');
    expect(map.get('/states/TX')).toBe('/states/texas');
    expect(map.get('/data/api/v1/specialties/ob-gyn.json')).toBe('/data/api/v1/specialties/obstetrics-gynecology.json');
    expect(map.get('/salaries/cardiology/TX')).toBe('/salaries/cardiology/texas');

    const problems: string[] = [];
    await pool(redirects, 32, async ({ from, to }) => {
      const a = await request(nginxBase, from);
      if (a.status !== 301 || a.headers.location !== to) problems.push(`${from}: nginx answered ${a.status} ${a.headers.location ?? ''}, not 301 ${to}`);
      if (a.headers['cache-control'] !== 'public, max-age=3600' || a.headers['access-control-allow-origin'] !== '*') problems.push(`${from}: nginx's 301 lacks the cache or CORS headers`);
    });
    // physpay serve: a page alias is a 301 with the same Location; a feed alias is served with a Link to the canonical URL
    const sample = redirects.filter((_, i) => i % 8 === 0);
    await pool(sample, 16, async ({ from, to }) => {
      const b = await get(serve!.url, from);
      const ok = from.startsWith('/data/') ? b.status === 200 && b.headers.link === `<${BASE_URL}${to}>; rel="canonical"` : b.status === 301 && b.headers.location === to;
      if (!ok) problems.push(`${from}: physpay serve answered ${b.status} ${b.headers.location ?? b.headers.link ?? ''}, not ${to}`);
    });
    expect(problems.slice(0, 20), `${problems.length} problems in ${redirects.length} redirects (${sample.length} also asked of physpay serve)`).toEqual([]);
  }, 60_000);

  it('lists every file and redirect in s3-metadata.json', () => {
    const doc = S3Metadata.parse(JSON.parse(readFileSync(join(out, 's3-metadata.json'), 'utf8')));
    expect(Object.keys(doc.objects).length).toBe(exported.files + exported.redirects);
    const bodies = new Set(Object.values(doc.objects).flatMap((o) => ('Body' in o ? [o.Body] : [])));
    expect([...bodies].sort()).toEqual([...files].sort());
    expect(doc.objects['salaries/cardiology']).toMatchObject({ Body: 'salaries/cardiology.html', ContentType: 'text/html; charset=utf-8' });
    expect(doc.objects['states/TX']).toEqual({ WebsiteRedirectLocation: '/states/texas', CacheControl: 'public, max-age=3600' });
  });
});
