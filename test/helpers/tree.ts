import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `dir`, as paths relative to `dir`, sorted. */
export function listFiles(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name), root) : [relative(root, join(dir, e.name))]))
    .sort();
}

export function readJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
