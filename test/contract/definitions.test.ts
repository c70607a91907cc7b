/**
 * One definition per published figure (build/contract/definitions.ts), in the same words everywhere: the served
 * definitions.json, the data package's field descriptions, the open data API's OpenAPI and JSON Schemas, and
 * the methodology page. A figure added to the feeds or CSVs without a definition fails here.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFINITIONS_PATH, DefinitionsDocument, FIGURE_DEFINITIONS, definitionText, definitionsDocument } from '../../build/contract/definitions.ts';
import { FEED_SCHEMAS, OpenSummary } from '../../build/contract/open-feeds.ts';
import { feedJsonSchema, openDataOpenApi } from '../../build/contract/openapi.ts';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { esc } from '../../build/pages/html.ts';

const work = useTempDir('definitions');

/**
 * Every property named `name` in a JSON Schema, at any depth, but inside a specialty's `components` (the rest
 * of the offer: its p25, median and p75 are of its items, not total compensation; collected in `offer`).
 */
function propertiesNamed(schema: unknown, name: string, out: Record<string, unknown>[] = [], offer?: Record<string, unknown>[]): Record<string, unknown>[] {
  if (Array.isArray(schema)) for (const s of schema) propertiesNamed(s, name, out, offer);
  else if (schema && typeof schema === 'object') {
    const props = (schema as { properties?: Record<string, Record<string, unknown>> }).properties;
    if (props?.[name]) out.push(props[name]!);
    for (const [k, v] of Object.entries(schema)) {
      if (k === 'properties' && v && typeof v === 'object') {
        for (const [p, sub] of Object.entries(v as Record<string, unknown>)) {
          if (p === 'components') offer?.push(sub as Record<string, unknown>);
          else propertiesNamed(sub, name, out, offer);
        }
      } else propertiesNamed(v, name, out, offer);
    }
  }
  return out;
}

describe('every figure defined, in the same words everywhere', () => {
  it('every figure of an open summary (and the CSVs\' money columns) has a definition with population, n, rounding, noise and unit', () => {
    const summaryFigures = Object.keys(OpenSummary.shape).filter((k) => k !== 'rounded' && k !== 'withheld');
    for (const f of [...summaryFigures, 'national_median', 'difference_from_national_pct', 'col_adjusted_median', 'pgy1_col_adjusted', 'by_year', 'wrvu', 'components']) {
      const d = FIGURE_DEFINITIONS.find((x) => x.figure === f);
      expect(d, f).toBeDefined();
      for (const k of ['population', 'n', 'rounding', 'noise', 'unit'] as const) expect(d![k].length, `${f}.${k}`).toBeGreaterThan(3);
    }
    expect(definitionText('median')).toMatch(/most recent complete compensation years.*full-time basis.*Tukey fences/);
    expect(definitionText('mean')).toMatch(/not winsorized/);
  });

  it('the JSON Schemas and OpenAPI of the feeds carry each definition wherever the figure appears', () => {
    const api = openDataOpenApi();
    for (const kind of Object.keys(FEED_SCHEMAS) as (keyof typeof FEED_SCHEMAS)[]) {
      const schema = feedJsonSchema(kind, 'https://x.example');
      const offer: Record<string, unknown>[] = [];
      for (const f of ['median', 'mean', 'p10', 'p25', 'p75', 'p90', 'national_median', 'by_year']) {
        for (const p of propertiesNamed(schema, f, [], offer)) expect(String(p.description), `${kind} ${f}`).toContain(definitionText(f));
      }
      // the rest of the offer carries its own definition, and none of total compensation inside it
      for (const c of offer) {
        expect(String(c.description), `${kind} components`).toContain(definitionText('components'));
        expect(JSON.stringify(c), `${kind} components`).not.toContain(definitionText('median').slice(0, 60));
      }
      if (kind === 'specialty' || kind === 'comparison') expect(offer.length, kind).toBeGreaterThan(0);
    }
    const spec = JSON.stringify(api);
    expect(spec).toContain(JSON.stringify(definitionText('median')).slice(1, -1));
    expect((api.paths as Record<string, unknown>)['/definitions.json']).toBeDefined();
    expect((api.paths as Record<string, unknown>)['/releases/{release}/{path}']).toBeDefined();
  });

  it('the build serves definitions.json; the data package, the archive list and the methodology page say the same', () => {
    const g = goldenBuildIn(work.path);
    const served = JSON.parse(readFileSync(join(g.buildDir, 'public', DEFINITIONS_PATH), 'utf8'));
    expect(DefinitionsDocument.parse(served)).toEqual(definitionsDocument('https://physpay.example', 'PhysPay'));
    const pkg = JSON.parse(readFileSync(join(g.buildDir, 'public/data/api/v1/datapackage.json'), 'utf8')) as { description: string; resources: { schema: { fields: { name: string; description: string }[] } }[] };
    expect(pkg.description).toContain(`https://physpay.example/${DEFINITIONS_PATH}`);
    let described = 0;
    for (const r of pkg.resources as { name: string; schema: { fields: { name: string; description: string }[] } }[]) {
      const offer = r.name === 'specialty-offer-components'; // its figures are of the row's item, in the row's unit
      for (const field of r.schema.fields) {
        if (!['median', 'mean', 'p10', 'p25', 'p75', 'p90', 'n', 'national_median', 'col_adjusted_median', 'difference_from_national_pct', 'pgy1_col_adjusted'].includes(field.name)) continue;
        if (offer && field.name === 'n') continue;
        expect(field.description, `${r.schema.fields.length} ${field.name}`).toContain(definitionText(offer ? 'components' : field.name));
        described++;
      }
    }
    expect(described).toBeGreaterThan(20);
    const archived = execFileSync('tar', ['-tzf', join(g.buildDir, 'public/data/api/v1/physpay-open-data.tar.gz')], { encoding: 'utf8' }).split('\n');
    expect(archived).toContain('physpay-open-data/definitions.json');
    const methodology = readFileSync(join(g.buildDir, 'public/methodology.html'), 'utf8');
    for (const d of FIGURE_DEFINITIONS) {
      expect(methodology, d.figure).toContain(`id="def-${d.figure}"`);
      expect(methodology, d.figure).toContain(esc(d.population));
      expect(methodology, d.figure).toContain(esc(d.noise));
    }
  });
});
