/**
 * The published contracts (docs/openapi, docs/schemas) must be what the zod schemas generate: this test
 * fails when a schema changed and `npx tsx scripts/gen-schemas.ts` was not run.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generatedContracts } from '../../build/contract/generated.ts';

describe('generated contracts', () => {
  it.each(generatedContracts().map(([rel, text]) => [rel, text] as const))('%s is up to date', (rel, text) => {
    const committed = readFileSync(join(process.cwd(), rel), 'utf8');
    expect(committed, `${rel} drifted from the zod schemas: run npx tsx scripts/gen-schemas.ts`).toBe(text);
  });

  it('the OpenAPI documents are OpenAPI 3.1 with every endpoint', () => {
    const a = JSON.parse(readFileSync(join(process.cwd(), 'docs/openapi/keyed-api.json'), 'utf8'));
    const b = JSON.parse(readFileSync(join(process.cwd(), 'docs/openapi/open-data-api.json'), 'utf8'));
    expect(a.openapi).toBe('3.1.0');
    expect(Object.keys(a.paths).sort()).toEqual(['/available-data', '/benchmarks', '/me/assistants', '/me/assistants/disconnect', '/me/key/rotate', '/me/usage', '/me/usage/history', '/offer-check', '/percentile-rank', '/specialties']);
    expect(b.openapi).toBe('3.1.0');
    expect(Object.keys(b.paths).sort()).toEqual([
      '/compare/{slug}/{other}.json', '/compare/{slug}/{other}/states/{state}.json', '/residency/institutions.csv', '/residency/institutions.json', '/residency/institutions/{slug}.json', '/residency/states/{state}.json', '/residency/pgy/{pgy}.json', '/residency/pgy-levels.csv', '/specialties.csv', '/specialties.json', '/specialty-states.csv', '/specialty-offer-components.csv',
      '/specialties/{slug}.json', '/specialties/{slug}/states/{state}.json', '/states.csv', '/states.json', '/states/{state}.json', '/wrvu/{slug}.json',
      '/releases.json', '/datapackage.json', '/definitions.json', '/CITATION.cff', '/physpay-open-data.tar.gz', '/physpay-open-data.tar.gz.sha256',
      '/releases/{release}/{path}',
    ].sort());
  });
});
