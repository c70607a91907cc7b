/**
 * The build's precompressed variants (README: Compression): every compressible public file of 1 kB or more
 * gets a gzip that decompresses to it, files without an access date a brotli too; both are in the manifest,
 * checked by `physpay verify` and when the server loads the build; a build without them (precompress off)
 * is served uncompressed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { goldenBuild, goldenBuildIn, type GoldenFiles } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { readManifest } from '../../build/emit/store.ts';
import { verifyBuildDir } from '../../build/emit/verify.ts';
import { isCompressible, MIN_COMPRESS_BYTES, variantPath } from '../../build/emit/precompress.ts';
import { BuildLoadError, LoadedBuild } from '../../server/builds/loaded-build.ts';
import { cpSync } from 'node:fs';

const tmp = useTempDir('precompress');
let golden: GoldenFiles;

beforeAll(() => {
  golden = goldenBuildIn(tmp.path);
}, 120_000);

describe('precompressed variants', () => {
  it('every compressible public file of 1 kB or more has a gzip decompressing to it; undated ones a brotli too', () => {
    const m = readManifest(golden.buildDir);
    let gz = 0;
    let br = 0;
    let raw = 0;
    let packed = 0;
    for (const [path, f] of Object.entries(m.files)) {
      if (!path.startsWith('public/')) {
        expect(f.gzip, path).toBeUndefined();
        continue;
      }
      const bytes = readFileSync(join(golden.buildDir, path));
      const dated = bytes.includes('accessed 2026-11-16)');
      const candidate = isCompressible(f.content_type) && bytes.length >= MIN_COMPRESS_BYTES;
      if (candidate) expect(f.gzip, path).toBeDefined();
      if (!candidate) expect(f.gzip, path).toBeUndefined();
      if (f.gzip) {
        gz++;
        const v = readFileSync(join(golden.buildDir, variantPath(path, 'gzip')));
        expect(gunzipSync(v).equals(bytes), path).toBe(true);
        raw += bytes.length;
        packed += v.length;
      }
      expect(f.br !== undefined, path).toBe(candidate && !dated);
      if (f.br) {
        br++;
        expect(brotliDecompressSync(readFileSync(join(golden.buildDir, variantPath(path, 'br')))).equals(bytes), path).toBe(true);
      }
    }
    expect(gz).toBeGreaterThan(5000);
    expect(br).toBeGreaterThanOrEqual(10);
    // the stored dates and independent pieces cost little: the gzip variants are under a third of the bytes
    expect(packed / raw).toBeLessThan(0.34);
  });

  it('physpay verify and the server both refuse a variant that does not match its manifest entry', async () => {
    const copy = join(tmp.path, 'tampered');
    cpSync(golden.buildDir, copy, { recursive: true });
    const at = join(copy, variantPath('public/data/api/v1/specialties/cardiology.json', 'gzip'));
    const v = readFileSync(at);
    v[v.length - 12]! ^= 1;
    writeFileSync(at, v);
    expect(verifyBuildDir(copy).join('\n')).toMatch(/encoded\/public\/data\/api\/v1\/specialties\/cardiology\.json\.gz: size or SHA-256 differs/);
    await expect(LoadedBuild.load(copy, golden.buildId)).rejects.toThrow(BuildLoadError);
  });

  it('the same reports and options give the same variants (deterministic), and precompress off writes none', () => {
    const off = goldenBuild(golden.db, join(tmp.path, 'off'), { precompress: false });
    expect(existsSync(join(off.dir, 'encoded'))).toBe(false);
    const m = readManifest(off.dir);
    expect(Object.values(m.files).some((f) => f.gzip || f.br)).toBe(false);
    expect(verifyBuildDir(off.dir)).toEqual([]);
    const again = goldenBuild(golden.db, join(tmp.path, 'again'), { precompress: true });
    const a = readManifest(golden.buildDir).files;
    const b = readManifest(again.dir).files;
    for (const [path, f] of Object.entries(a)) {
      expect(b[path]!.gzip, path).toEqual(f.gzip);
      expect(b[path]!.br, path).toEqual(f.br);
    }
  }, 120_000);
});
