/** Verify a build folder on disk: manifest, hashes, schemas, floors. */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { compareFileSets, validateArtifact } from '../contract/validate.ts';
import { readManifest } from './store.ts';

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
  }
  return problems;
}
