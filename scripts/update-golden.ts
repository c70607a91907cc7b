/**
 * Regenerate the golden build files under test/golden/build/ after an intended change of output.
 *   npx tsx scripts/update-golden.ts
 * Never run in CI: the golden test must compare against what was reviewed and committed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { goldenBuild, makeGoldenDb } from '../test/helpers/golden-build.ts';
import { GOLDEN_DIR, GOLDEN_SAMPLES, digestOf } from '../test/helpers/golden-files.ts';

if (process.env.CI) {
  console.error('update-golden: refusing to run in CI (CI is set)');
  process.exit(1);
}
const work = mkdtempSync(join(tmpdir(), 'physpay-golden-update-'));
const db = makeGoldenDb(work);
const result = goldenBuild(db, join(work, 'dist'));
rmSync(GOLDEN_DIR, { recursive: true, force: true });
for (const rel of GOLDEN_SAMPLES) {
  const target = join(GOLDEN_DIR, rel);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, readFileSync(join(result.dir, rel)));
}
writeFileSync(join(GOLDEN_DIR, 'DIGEST.txt'), digestOf(result.dir));
console.log(`golden files written to ${GOLDEN_DIR} from build ${result.id}`);
rmSync(work, { recursive: true, force: true });
