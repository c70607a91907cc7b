/**
 * CITATION.cff of the golden build, checked the way `cffconvert --validate` would: parsed as YAML (the
 * `yaml` package) and validated against the official Citation File Format 1.2.0 JSON Schema (vendored in
 * test/fixtures/cff, CC BY 4.0) with ajv; it names the latest release of releases.json.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { goldenBuildIn, type GoldenFiles } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import type { ReleasesFeed } from '../../build/contract/releases.ts';

const tmp = useTempDir('citation-cff');
let g: GoldenFiles;
beforeAll(() => {
  g = goldenBuildIn(tmp.path);
}, 120_000);

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/cff/schema.json'), 'utf8'));
const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
const validate = ajv.compile(schema);

describe('CITATION.cff', () => {
  it('is valid Citation File Format 1.2.0 and names the latest release', () => {
    const text = readFileSync(join(g.buildDir, 'public/CITATION.cff'), 'utf8');
    const cff = parse(text) as Record<string, unknown>;
    expect(validate(cff), ajv.errorsText(validate.errors)).toBe(true);
    const list = JSON.parse(readFileSync(join(g.buildDir, 'public/data/api/v1/releases.json'), 'utf8')) as ReleasesFeed;
    expect(cff).toMatchObject({ 'cff-version': '1.2.0', type: 'dataset', version: list.latest, 'date-released': list.releases[0]!.date, license: 'CC-BY-4.0' });
    expect(String((cff.identifiers as { description: string }[])[0]!.description)).toContain(list.releases[0]!.archive_sha256);
  });

  it('the schema is not a formality: it rejects a file without authors or with an unknown licence', () => {
    const cff = parse(readFileSync(join(g.buildDir, 'public/CITATION.cff'), 'utf8')) as Record<string, unknown>;
    expect(validate({ ...cff, authors: undefined })).toBe(false);
    expect(validate({ ...cff, license: 'CC-BY-4' })).toBe(false);
  });
});
