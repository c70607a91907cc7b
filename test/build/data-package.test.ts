/**
 * The build's bulk download and data package, on the golden build:
 *  - datapackage.json passes the official Data Package v2 profiles (vendored: test/fixtures/datapackage-v2),
 *    each resource the Data Resource profile, its schema the Table Schema profile, its dialect the Table
 *    Dialect profile (ajv, as `frictionless validate` would);
 *  - every CSV conforms to its Table Schema: header order, every cell of its type or a missing value,
 *    primary keys present and unique; bytes and hash as declared;
 *  - the archive's SHA-256 is the one published beside it, and its files are exactly the served feeds, CSVs
 *    and data package, byte for byte but for the citation line's date: "archive built <build date>" where the
 *    server writes "accessed <day>" (extracted with the system's tar); a rebuild with the same figures keeps
 *    the archive, a rebuild with other figures makes a new one that says so.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import Ajv from 'ajv';
import { goldenBuildIn, type GoldenFiles } from '../helpers/golden-build.ts';
import { request } from '../helpers/http.ts';
import { closeAfterAll, startTestServer } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { ARCHIVE_PATH, ARCHIVE_SHA256_PATH, DATA_PACKAGE_PATH } from '../../build/compute/data-package.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const tmp = useTempDir('data-package');
const later = closeAfterAll();
const profile = (name: string) => JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/datapackage-v2', `${name}.json`), 'utf8'));
const ajv = new Ajv({ strict: false, allErrors: true });
let g: GoldenFiles;
let pkg: Json;
const pub = (path: string) => readFileSync(join(g.buildDir, 'public', path));

beforeAll(() => {
  g = goldenBuildIn(tmp.path);
  pkg = JSON.parse(pub(DATA_PACKAGE_PATH).toString('utf8'));
});

describe('datapackage.json', () => {
  it('passes the Data Package v2 profile; each resource, schema and dialect its own profile', () => {
    const check = (name: string, doc: unknown) => {
      const validate = ajv.getSchema(name) ?? (ajv.addSchema(profile(name), name), ajv.getSchema(name)!);
      expect(validate(doc), `${name}: ${ajv.errorsText(validate.errors, { separator: '\n' })}`).toBe(true);
    };
    check('datapackage', pkg);
    // the profile does reject a broken descriptor (a consumer's validator would too)
    expect(ajv.getSchema('datapackage')!({ ...pkg, resources: [{ ...pkg.resources[0], path: 42 }] })).toBe(false);
    expect(pkg.$schema).toBe('https://datapackage.org/profiles/2.0/datapackage.json');
    expect(pkg.licenses).toEqual([{ name: 'CC-BY-4.0', path: 'https://creativecommons.org/licenses/by/4.0/', title: 'Creative Commons Attribution 4.0 International' }]);
    expect(pkg.description).toMatch(/Publication floors: .*Disclosure control: /);
    expect(pkg.resources.map((r: Json) => r.path)).toEqual(['specialties.csv', 'specialty-states.csv', 'states.csv', 'specialty-offer-components.csv', 'residency/institutions.csv', 'residency/pgy-levels.csv']);
    // every teaching hospital at every PGY level: salary and adjustment of the row's level, empty past a scale's end
    const levels = pkg.resources[5];
    expect(levels.schema.primaryKey).toEqual(['slug', 'pgy']);
    const levelField = (name: string) => (levels.schema.fields as Json[]).find((f) => f.name === name)!;
    expect(levelField('salary').description).toMatch(/Empty when the scale has no such level/);
    expect(levelField('col_adjusted').description).toMatch(/cost-of-living index \/ 100, as for PGY-1/);
    expect(pkg.resources[1].schema.primaryKey).toEqual(['specialty_slug', 'state_code']);
    // the rest of the offer: its figures are in the row's unit (a column of its own), not USD like the other CSVs'
    const offer = pkg.resources[3];
    expect(offer.schema.primaryKey).toEqual(['specialty_slug', 'item']);
    const fieldOf = (name: string) => (offer.schema.fields as Json[]).find((f) => f.name === name)!;
    for (const f of ['p25', 'median', 'p75']) {
      expect(fieldOf(f).unit, f).toBeUndefined();
      expect(fieldOf(f).description, f).toMatch(/in the row's unit.*not scaled to full time/);
    }
    expect(fieldOf('unit').description).toMatch(/USD a year.*weeks a year.*nights a month.*USD per wRVU.*miles.*years/);
    expect(fieldOf('share_pct')).toMatchObject({ type: 'number', unit: '%' });
    expect(fieldOf('share_pct').description).toMatch(/below 5 counts as 2\.5/);
    expect(fieldOf('rounded_to').description).toMatch(/1000.*0\.01.*5.*0\.5/);
    expect(fieldOf('n').type).toBe('integer');
    expect(offer.schema.missingValues).toEqual(['']);
    for (const r of pkg.resources) {
      check('dataresource', r);
      check('tableschema', r.schema);
      check('tabledialect', r.dialect);
    }
  });

  it('every CSV conforms to its Table Schema (header, types, missing values, primary key) and its bytes and hash', () => {
    const parse = (text: string): string[][] => {
      // RFC 4180 as the dialect declares it (quotes doubled, CRLF)
      const rows: string[][] = [];
      let row: string[] = [];
      let cell = '';
      let quoted = false;
      for (let i = 0; i < text.length; i++) {
        const c = text[i]!;
        if (quoted) {
          if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
          else if (c === '"') quoted = false;
          else cell += c;
        } else if (c === '"') quoted = true;
        else if (c === ',') row.push(cell), (cell = '');
        else if (c === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
        else cell += c;
      }
      return rows;
    };
    const ok: Record<string, (v: string) => boolean> = {
      string: () => true,
      integer: (v) => /^-?\d+$/.test(v),
      number: (v) => /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(v) && Number.isFinite(Number(v)),
      boolean: (v) => v === 'true' || v === 'false',
      date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
    };
    for (const r of pkg.resources) {
      const bytes = pub(`data/api/v1/${r.path}`);
      expect(r.bytes).toBe(bytes.length);
      expect(r.hash).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
      const [header, ...rows] = parse(bytes.toString('utf8'));
      const fields = r.schema.fields as Json[];
      expect(header, r.path).toEqual(fields.map((f) => f.name));
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        expect(row.length).toBe(fields.length);
        fields.forEach((f, k) => {
          const v = row[k]!;
          if (r.schema.missingValues.includes(v)) return;
          expect(ok[f.type]!(v), `${r.path} ${f.name} = ${JSON.stringify(v)} is not a ${f.type}`).toBe(true);
          if (f.format === 'uri') expect(() => new URL(v), `${r.path} ${f.name}`).not.toThrow();
        });
      }
      const keys = rows.map((row) => r.schema.primaryKey.map((k: string) => row[header!.indexOf(k)]).join('|'));
      expect(keys.every((k) => k !== '' && !k.split('|').includes('')), `${r.path}: primary key present`).toBe(true);
      expect(new Set(keys).size, `${r.path}: primary key unique`).toBe(keys.length);
    }
  });
});

describe('the archive', () => {
  it('its SHA-256 is published beside it; its files are the served feeds, CSVs and data package, byte for byte', async () => {
    const archive = pub(ARCHIVE_PATH);
    expect(pub(ARCHIVE_SHA256_PATH).toString('utf8')).toBe(`${createHash('sha256').update(archive).digest('hex')}  physpay-open-data.tar.gz\n`);
    const out = join(tmp.path, 'extracted');
    mkdirSync(out);
    execFileSync('tar', ['-xzf', join(g.buildDir, 'public', ARCHIVE_PATH), '-C', out]);
    const [root] = readdirSync(out);
    expect(root).toBe('physpay-open-data');
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
    const inArchive = walk(join(out, root!)).map((p) => relative(join(out, root!), p)).sort();
    // exactly the build's feeds and CSVs (and the data package), not the archive itself, nor releases.json
    // (it lists the archive's SHA-256, so it cannot be inside it)
    const published = walk(join(g.buildDir, 'public/data/api/v1')).map((p) => relative(join(g.buildDir, 'public/data/api/v1'), p))
      .filter((p) => !p.startsWith('physpay-open-data.tar.gz') && p !== 'releases.json' && /\.(json|csv)$/.test(p)).sort();
    expect(inArchive).toEqual(published);
    const releases = JSON.parse(pub('data/api/v1/releases.json').toString('utf8')) as { releases: { archive_sha256: string }[] };
    expect(releases.releases[0]!.archive_sha256).toBe(createHash('sha256').update(archive).digest('hex'));
    // and what the server sends for each, but for the date phrase of the citation line
    const buildDate = JSON.parse(readFileSync(join(g.buildDir, 'build.json'), 'utf8')).build_date as string;
    const day = '2027-01-15';
    const s = later(await startTestServer(g.dist, join(tmp.path, 'service.db'), { clock: () => new Date(`${day}T12:00:00Z`) }));
    let dated = 0;
    for (const path of inArchive.filter((_, i) => i % 25 === 0 || i < 5)) {
      const r = await request(s.url, `/data/api/v1/${path}`);
      expect(r.status, path).toBe(200);
      const archived = readFileSync(join(out, root!, path), 'utf8');
      expect(archived, path).not.toContain('accessed ');
      if (archived.includes(`archive built ${buildDate})`)) dated++;
      expect(r.text, path).toBe(archived.split(`archive built ${buildDate})`).join(`accessed ${day})`));
    }
    expect(dated).toBeGreaterThan(0);
    const mtimes = execFileSync('tar', ['-tvzf', join(g.buildDir, 'public', ARCHIVE_PATH)], { encoding: 'utf8' });
    expect(mtimes).toContain(buildDate);
    const dl = await request(s.url, `/${ARCHIVE_PATH}`);
    expect([dl.status, dl.headers['content-type']]).toEqual([200, 'application/gzip']);
    expect(dl.body.equals(archive)).toBe(true);
  }, 60_000);
});
