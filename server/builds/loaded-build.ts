/**
 * One published build held in memory: every public file (verified against the manifest), the lookups
 * the open data API needs to resolve slugs, and per-day renderings of files whose attribution line
 * carries the access date. Immutable once loaded: a request that started on a build finishes on it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BuildSummary, accessDateToken, type Manifest } from '../../build/contract/manifest.ts';
import { feedPaths, type InstitutionsFeed } from '../../build/contract/open-feeds.ts';
import { readManifestFile } from './manifest.ts';
import { ReadFilesError, readVerifiedFiles } from './read-files.ts';
import { manifestEntry, sha256 } from '../../build/contract/validate.ts';
import { KeyedIndex } from '../../build/contract/keyed-artifacts.ts';
import { buildResolver, type Resolver } from '../open-data/resolve.ts';
import { SERVE_BROTLI_QUALITY, brotliAsync, gzipWithTokens, splitOn, isCompressible, MIN_COMPRESS_BYTES, redateGzip, splitGzip, variantPath, worthKeeping, type ContentCoding } from '../../build/emit/precompress.ts';

export interface ServedFile {
  /** URL path, e.g. /data/api/v1/specialties/cardiology.json */
  urlPath: string;
  contentType: string;
  contentHash: string;
  /** the bytes split around the access-date token (one part when the file has none) */
  parts: Buffer[];
  /** rendering for one day, replaced when the day changes */
  rendered: { day: string; body: Buffer; etag: string } | null;
  /**
   * the build's gzip variant split around its stored access dates (build/emit/precompress.ts), re-dated per
   * day by `encoded`; null when the file has none (small, binary, or a build made before variants)
   */
  gzip: Buffer[] | null;
  /** the build's brotli variant (files without an access date only) */
  br: Buffer | null;
  /** the day's re-dated gzip, and the day's brotli of a dated file (made once per day, off the event loop) */
  encodedFor: { day: string; gzip?: Buffer; br?: Buffer | Promise<Buffer> } | null;
}

/** The coding a representation is sent in: one of the variants, or the file as it is. */
export type Coding = ContentCoding | 'identity';

export class BuildLoadError extends Error {}

const BOTH_CODINGS: readonly ContentCoding[] = Object.freeze(['br', 'gzip'] as const);
const BR_ONLY: readonly ContentCoding[] = Object.freeze(['br'] as const);
const NO_CODINGS: readonly ContentCoding[] = Object.freeze([]);

/** Map a public file's path in the build to its URL path: pages lose .html (a/b.html and a/b/index.html -> /a/b). */
export function urlPathOf(buildPath: string): string | null {
  if (!buildPath.startsWith('public/')) return null;
  let p = buildPath.slice('public'.length);
  if (p.endsWith('/index.html')) p = p.slice(0, -'/index.html'.length) || '/';
  else if (p.endsWith('.html')) p = p.slice(0, -'.html'.length);
  return p;
}


export class LoadedBuild {
  readonly files = new Map<string, ServedFile>();
  private constructor(
    readonly id: string,
    readonly dir: string,
    readonly manifest: Manifest,
    readonly resolver: Resolver,
    readonly keyedIndex: KeyedIndex,
    /** base URL the build was made for (from build.json), used in did_you_mean links */
    readonly baseUrl: string,
    /** when the build was made (build.json created_at) */
    readonly createdAt: string,
  ) {}

  /**
   * Read and verify a build folder. Throws BuildLoadError when any file disagrees with the manifest.
   *
   * The files are read and checked in a worker thread (read-files.ts), one after the other, and handed to
   * the loop in one message: the loop neither waits on the disk (a slow or stalled file holds the thread,
   * not the server's answers) nor queues each read behind the requests of a busy server. Reading on the
   * loop, 16 files at a time, the golden build (5,482 files) loaded in 0.5 s when idle and not at all while
   * a flood of requests went on (README: Operations, "Start-up").
   */
  static async load(dir: string, id: string): Promise<LoadedBuild> {
    const manifest = await readManifestFile(dir);
    if (manifest.build_id !== id) throw new BuildLoadError(`manifest of ${dir} names build ${manifest.build_id}, not ${id}`);
    const buildToken = Buffer.from(accessDateToken(manifest.build_date));
    // other private artifacts are read on demand
    const wanted = Object.entries(manifest.files).filter(([path]) => path === 'private/keyed/index.json' || urlPathOf(path) !== null);
    // the precompressed variants, checked like the files, read after them in the same pass
    const variants = wanted.flatMap(([path, entry]) => (['gzip', 'br'] as const).flatMap((coding) => {
      const v = entry[coding];
      return v ? [{ path: variantPath(path, coding), bytes: v.bytes, sha256: v.sha256, of: path, coding }] : [];
    }));
    let contents: Buffer[];
    try {
      contents = await readVerifiedFiles(dir, [...wanted.map(([path, entry]) => ({ path, bytes: entry.bytes, sha256: entry.sha256 })), ...variants]);
    } catch (err) {
      if (err instanceof ReadFilesError && err.mismatch) throw new BuildLoadError(`${err.mismatch.path} in build ${id} does not match its manifest entry`);
      throw err;
    }
    const variantBytes = new Map<string, Buffer>();
    variants.forEach((v, k) => variantBytes.set(`${v.coding}:${v.of}`, contents[wanted.length + k]!));
    const loaded: [string, ServedFile][] = [];
    let keyedIndexBytes: Buffer | null = null;
    let institutionsBytes: Buffer | null = null;
    for (const [i, [path, entry]] of wanted.entries()) {
      const bytes = contents[i]!;
      if (path === 'private/keyed/index.json') keyedIndexBytes = bytes;
      if (path === `public/${feedPaths.institutions()}`) institutionsBytes = bytes;
      const urlPath = urlPathOf(path);
      if (urlPath) {
        // a file reused from an earlier build carries that build's access date (manifest: access_date)
        const token = entry.access_date ? Buffer.from(accessDateToken(entry.access_date)) : buildToken;
        const parts = splitOn(bytes, token);
        const gz = variantBytes.get(`gzip:${path}`);
        const gzip = gz ? splitGzip(gz, token, parts.length - 1) : null;
        if (gz && !gzip) throw new BuildLoadError(`${variantPath(path, 'gzip')} in build ${id} does not hold the access dates of ${path}`);
        loaded.push([urlPath, { urlPath, contentType: entry.content_type, contentHash: entry.content_hash, parts, rendered: null, gzip, br: variantBytes.get(`br:${path}`) ?? null, encodedFor: null }]);
      }
    }
    if (!keyedIndexBytes) throw new BuildLoadError(`build ${id} has no private/keyed/index.json`);
    const keyedIndex = KeyedIndex.parse(JSON.parse(keyedIndexBytes.toString('utf8')));
    const institutions = institutionsBytes
      ? (JSON.parse(institutionsBytes.toString('utf8')) as InstitutionsFeed).institutions.map((i) => ({ slug: i.institution.slug, name: i.institution.name }))
      : [];
    const summary = BuildSummary.parse(JSON.parse(await readFile(join(dir, 'build.json'), 'utf8')));
    const build = new LoadedBuild(id, dir, manifest, buildResolver(keyedIndex, institutions), keyedIndex, summary.base_url, summary.created_at);
    for (const [p, f] of loaded) build.files.set(p, f);
    return build;
  }

  private readonly derivedFiles = new Map<string, ServedFile>();

  /**
   * A document derived on request from this build's files (a comparison of two specialties, its page),
   * served like a file of the build: `make(accessDate)` writes it for the build date, whose access-date
   * token is then filled in per day by `render`. Kept (up to 2,000) for the life of the build.
   */
  derived(urlPath: string, contentType: string, make: (accessDate: string) => string): ServedFile {
    let f = this.derivedFiles.get(urlPath);
    if (f) return f;
    const bytes = Buffer.from(make(this.manifest.build_date));
    const token = Buffer.from(accessDateToken(this.manifest.build_date));
    const parts = splitOn(bytes, token);
    // compressed like a file of the build, once, when it is first asked for
    const gz = bytes.length >= MIN_COMPRESS_BYTES && isCompressible(contentType) ? gzipWithTokens(bytes, token) : null;
    const gzip = gz && worthKeeping(gz, bytes) ? splitGzip(gz, token, parts.length - 1) : null;
    f = { urlPath, contentType, contentHash: manifestEntry(urlPath, bytes, this.manifest.build_date).content_hash, parts, rendered: null, gzip, br: null, encodedFor: null };
    if (this.derivedFiles.size >= 2000) this.derivedFiles.delete(this.derivedFiles.keys().next().value!);
    this.derivedFiles.set(urlPath, f);
    return f;
  }

  /** The file's bytes for `day` (YYYY-MM-DD: the access date) and its strong ETag. */
  render(file: ServedFile, day: string): { body: Buffer; etag: string } {
    const r = file.rendered;
    if (r && r.day === day) return r;
    const body = file.parts.length === 1 ? file.parts[0]! : Buffer.concat(joinParts(file.parts, Buffer.from(accessDateToken(day))));
    const etag = `"${file.contentHash.slice(0, 32)}${file.parts.length === 1 ? '' : `-${day.replace(/-/g, '')}`}"`;
    file.rendered = { day, body, etag };
    return file.rendered;
  }

  /** The codings `file` can be sent in besides identity: gzip when the build made a variant, br too (made per day for a dated file). */
  codings(file: ServedFile): readonly ContentCoding[] {
    return file.gzip ? BOTH_CODINGS : file.br ? BR_ONLY : NO_CODINGS;
  }

  /** The strong ETag of `file` on `day` in `coding`: one per coding (RFC 9110, 8.8.3: a different representation). */
  etagOf(file: ServedFile, day: string, coding: Coding): string {
    const base = this.render(file, day).etag;
    return coding === 'identity' ? base : `${base.slice(0, -1)}-${coding === 'gzip' ? 'gz' : 'br'}"`;
  }

  /**
   * The bytes of `file` on `day` in `coding` (one of `codings(file)`, or identity). gzip is the build's
   * variant re-dated (a copy, no compression); brotli is the build's variant for an undated file, and for a
   * dated one is compressed once per day on zlib's thread pool: the first request of the day waits for it
   * (a few milliseconds), later ones get the kept bytes.
   */
  body(file: ServedFile, day: string, coding: Coding): Buffer | Promise<Buffer> {
    const identity = this.render(file, day).body;
    if (coding === 'identity') return identity;
    if (coding === 'br' && file.br) return file.br;
    if (!file.gzip) throw new Error(`${file.urlPath} has no ${coding} variant`);
    let e = file.encodedFor;
    if (!e || e.day !== day) e = file.encodedFor = { day };
    if (coding === 'gzip') {
      e.gzip ??= file.gzip.length === 1 ? file.gzip[0]! : redateGzip(file.gzip, Buffer.from(accessDateToken(day)), identity);
      return e.gzip;
    }
    if (!e.br) {
      const entry = e;
      const made = brotliAsync(identity, SERVE_BROTLI_QUALITY);
      entry.br = made;
      made.then((out) => {
        if (entry.br === made) entry.br = out;
      }, () => {
        if (entry.br === made) entry.br = undefined; // the next request tries again
      });
    }
    return e.br!;
  }

  /** Read a private artifact of this build (keyed API). */
  async readPrivate(path: string): Promise<Buffer> {
    const entry = this.manifest.files[path];
    if (!entry) throw new BuildLoadError(`${path} is not part of build ${this.id}`);
    const bytes = await readFile(join(this.dir, path));
    if (bytes.length !== entry.bytes || sha256(bytes) !== entry.sha256) throw new BuildLoadError(`${path} in build ${this.id} does not match its manifest entry`);
    return bytes;
  }
}


function joinParts(parts: Buffer[], sep: Buffer): Buffer[] {
  const out: Buffer[] = [];
  parts.forEach((p, i) => {
    if (i > 0) out.push(sep);
    out.push(p);
  });
  return out;
}
