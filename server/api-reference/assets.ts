/**
 * The files of the API reference pages, read once (on the first request for one) into memory: Swagger UI's
 * prebuilt bundle and stylesheet from the swagger-ui-dist package in node_modules, and this directory's
 * browser script and stylesheet. Each has a strong ETag and, when it is worth it, a gzip copy. Nothing is
 * fetched from anywhere else: the pages work offline.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface Asset {
  body: Buffer;
  gzip: Buffer | null;
  etag: string;
  contentType: string;
}

const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const HERE = join(import.meta.dirname, 'browser');

/** URL name -> file on disk and its type. */
const FILES: Record<string, { path: string; type: string }> = {
  'swagger-ui-bundle.js': { path: join(SWAGGER_DIR, 'swagger-ui-bundle.js'), type: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { path: join(SWAGGER_DIR, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'favicon-32x32.png': { path: join(SWAGGER_DIR, 'favicon-32x32.png'), type: 'image/png' },
  'reference.js': { path: join(HERE, 'reference.js'), type: 'text/javascript; charset=utf-8' },
  'reference.css': { path: join(HERE, 'reference.css'), type: 'text/css; charset=utf-8' },
};

/** Where the pages link the assets. */
export const ASSET_PREFIX = '/docs/api/assets/';

export const assetUrl = (name: string) => `${ASSET_PREFIX}${name}`;

export const swaggerUiVersion = (): string => (JSON.parse(readFileSync(join(SWAGGER_DIR, 'package.json'), 'utf8')) as { version: string }).version;

export function makeAsset(body: Buffer, contentType: string): Asset {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const gzip = /^(text|application)\//.test(contentType) && body.length > 1024 ? gzipSync(body) : null;
  return { body, gzip, etag, contentType };
}

let loaded: Map<string, Asset> | null = null;

/** The asset named `name` (its URL's last segment, lower case), or undefined. */
export function asset(name: string): Asset | undefined {
  if (!loaded) {
    loaded = new Map(Object.entries(FILES).map(([n, f]) => [n.toLowerCase(), makeAsset(readFileSync(f.path), f.type)]));
  }
  return loaded.get(name);
}
