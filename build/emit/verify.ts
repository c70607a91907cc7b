/** Verify a build folder on disk: manifest, hashes, schemas, floors. */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compareFileSets, validateArtifact } from '../contract/validate.ts';
import { readManifest } from './store.ts';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { accessDateToken, type ManifestFile } from '../contract/manifest.ts';
import { splitGzip, variantPath } from './precompress.ts';

/** A file's precompressed variants: their size and hash as listed, decompressing to the file itself, gzip's dates where the server re-dates them. */
function verifyVariants(dir: string, path: string, bytes: Buffer, entry: ManifestFile, buildDate: string): string[] {
  const problems: string[] = [];
  for (const coding of ['gzip', 'br'] as const) {
    const v = entry[coding];
    if (!v) continue;
    const at = variantPath(path, coding);
    let variant: Buffer;
    try {
      variant = readFileSync(join(dir, at));
    } catch {
      continue; // reported as missing
    }
    if (variant.length !== v.bytes || createHash('sha256').update(variant).digest('hex') !== v.sha256) {
      problems.push(`${at}: size or SHA-256 differs from the manifest`);
      continue;
    }
    let plain: Buffer;
    try {
      plain = coding === 'gzip' ? gunzipSync(variant) : brotliDecompressSync(variant);
    } catch (err) {
      problems.push(`${at}: does not decompress (${(err as Error).message})`);
      continue;
    }
    if (!plain.equals(bytes)) problems.push(`${at}: does not decompress to ${path}`);
    const token = Buffer.from(accessDateToken(entry.access_date ?? buildDate));
    if (coding === 'gzip' && !splitGzip(variant, token, bytes.toString('latin1').split(token.toString('latin1')).length - 1)) {
      problems.push(`${at}: its access dates are not where the server re-dates them`);
    }
  }
  return problems;
}

function walk(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name), root) : [relative(root, join(dir, e.name))],
  );
}

export function verifyBuildDir(dir: string): string[] {
  let manifest;
  try {
    manifest = readManifest(dir);
  } catch (err) {
    return [`manifest.json unreadable: ${(err as Error).message}`];
  }
  const present = walk(dir).filter((p) => p !== 'manifest.json' && p !== 'build.json');
  const problems = compareFileSets(manifest, present);
  for (const [path, entry] of Object.entries(manifest.files)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, path));
    } catch {
      continue; // reported as missing above
    }
    problems.push(...validateArtifact(path, bytes, entry));
    problems.push(...verifyVariants(dir, path, bytes, entry, manifest.build_date));
  }
  return problems;
}
