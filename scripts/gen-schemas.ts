/**
 * Write the published contracts generated from the zod schemas:
 *   docs/openapi/keyed-api.json       OpenAPI 3.1 of the keyed API (A)
 *   docs/openapi/open-data-api.json   OpenAPI 3.1 of the open data API (B)
 *   docs/openapi/contribute.json      OpenAPI 3.1 of the report intake (POST /contribute)
 *   docs/schemas/<feed>.schema.json   JSON Schema of every feed
 *
 *   npx tsx scripts/gen-schemas.ts           regenerate after changing a schema
 *   npx tsx scripts/gen-schemas.ts --check   exit 1 if the committed files are out of date (drift)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generatedContracts } from '../build/contract/generated.ts';

const check = process.argv.includes('--check');
const root = join(import.meta.dirname, '..');
let stale = 0;
for (const [rel, text] of generatedContracts()) {
  const path = join(root, rel);
  let current: string | null = null;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = null;
  }
  if (current === text) continue;
  if (check) {
    console.error(`${rel} is out of date: run npx tsx scripts/gen-schemas.ts`);
    stale++;
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    console.log(`wrote ${rel}`);
  }
}
if (check && stale) process.exit(1);
if (check) console.log('contracts are up to date');
