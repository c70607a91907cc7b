import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFiles } from './tree.ts';

export const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'golden', 'build');

/** Files kept in full (readable diffs); every other file is covered by DIGEST.txt. */
export const GOLDEN_SAMPLES = [
  'public/data/api/v1/specialties.json',
  'public/data/api/v1/states.json',
  'public/data/api/v1/specialties/family-medicine.json',
  'public/data/api/v1/specialties/medical-genetics.json',
  'public/data/api/v1/specialties/family-medicine/states/california.json',
  'public/data/api/v1/specialties/family-medicine/states/wyoming.json',
  'public/data/api/v1/states/texas.json',
  'public/data/api/v1/wrvu/family-medicine.json',
  'public/data/api/v1/residency/institutions/baptist-general-hospital-fargo.json',
  'public/data/api/v1/residency/pgy/7.json',
  'private/keyed/index.json',
];

/** One line per file of a build: path, SHA-256, size. */
export function digestOf(buildDir: string): string {
  return (
    listFiles(buildDir)
      // precompressed variants depend on the zlib of the Node.js that made them: checked by decompressing
      // (physpay verify, test/build/precompress.test.ts), not by their bytes
      .filter((p) => p !== 'build.json' && p !== 'manifest.json' && !p.startsWith('encoded/'))
      .map((p) => {
        const bytes = readFileSync(join(buildDir, p));
        return `${createHash('sha256').update(bytes).digest('hex')} ${String(bytes.length).padStart(8)} ${p}`;
      })
      .join('\n') + '\n'
  );
}
