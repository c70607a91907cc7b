import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Manifest } from '../../build/contract/manifest.ts';

export async function readManifestFile(dir: string): Promise<Manifest> {
  return Manifest.parse(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')));
}
