/**
 * The files of a static export, taken from a loaded build exactly as physpay serve sends them on `day`
 * (the access date filled into the attribution lines, physpay's ETag for that day), and the API's
 * contract documents, which the server answers from code. No fs, no clock: the caller loads the build
 * and names the day.
 */
import { urlPathOf, type LoadedBuild } from '../builds/loaded-build.ts';
import { PUBLIC_CACHE_CONTROL } from '../http/send.ts';
import { PAGE_SECURITY_HEADER_NAMES, securityHeadersFor } from '../http/page-security.ts';
import type { EntityKind } from '../open-data/resolve.ts';
import { CONTRACT_CONTENT_TYPE, type ContractDocument } from '../open-data/contract-documents.ts';
import { aliasRedirects } from './aliases.ts';
import { checkPlan, type ExportFile, type ExportPlan } from './plan.ts';

export interface FileWithBody {
  file: ExportFile;
  body: Buffer;
  /** the gzip representation, written as `<file>.gz` (the nginx manifest serves it by negotiation) */
  gzip?: Buffer;
}

/**
 * The file a URL path is written to. Every public file keeps its name in the build (`public/a/b.html`
 * -> `a/b.html`, served at /a/b), so each page sits where static hosts look for an extensionless URL
 * (`$uri.html`); a page built as `a/index.html` stays there (`$uri/index.html`).
 */
export function exportFileOf(buildPath: string): string {
  if (!buildPath.startsWith('public/')) throw new Error(`${buildPath} is not a public file of the build`);
  return buildPath.slice('public/'.length);
}

/**
 * Every URL the server answers from the build's files, in the build's order, then the contract
 * documents (which the server answers first, so one of them replaces a build file at the same URL).
 */
export function siteFiles(build: LoadedBuild, day: string, contract: ReadonlyMap<string, ContractDocument>): FileWithBody[] {
  // the build path behind each URL: the last manifest entry mapping to it, as LoadedBuild.load keeps it
  const pathOf = new Map<string, string>();
  for (const path of Object.keys(build.manifest.files)) {
    const url = urlPathOf(path);
    if (url) pathOf.set(url, path);
  }
  const out = new Map<string, FileWithBody>();
  for (const [urlPath, served] of build.files) {
    const buildPath = pathOf.get(urlPath);
    if (!buildPath) throw new Error(`no manifest entry of build ${build.id} serves ${urlPath}`);
    const { body, etag } = build.render(served, day);
    // gzip only: a static host has no per-day brotli of dated files (the server makes those as it serves)
    const gzip = build.codings(served).includes('gzip') ? (build.body(served, day, 'gzip') as Buffer) : undefined;
    out.set(urlPath, {
      file: {
        urlPath, file: exportFileOf(buildPath), contentType: served.contentType, etag, cacheControl: PUBLIC_CACHE_CONTROL, build: build.id, bytes: body.length,
        security: Object.entries(securityHeadersFor(served.contentType, body)).map(([name, value]) => [PAGE_SECURITY_HEADER_NAMES[name]!, value]),
        ...(gzip ? { gzip: { etag: build.etagOf(served, day, 'gzip'), bytes: gzip.length } } : {}),
      },
      body,
      ...(gzip ? { gzip } : {}),
    });
  }
  for (const [urlPath, doc] of contract) {
    out.delete(urlPath);
    out.set(urlPath, {
      file: { urlPath, file: urlPath.slice(1), contentType: CONTRACT_CONTENT_TYPE, etag: doc.etag, cacheControl: PUBLIC_CACHE_CONTROL, build: null, bytes: doc.body.length },
      body: doc.body,
    });
  }
  return [...out.values()];
}

/** The plan and bodies of a build's export on `day`: its files, the contract documents and the alias redirects. */
export function exportSite(build: LoadedBuild, day: string, contract: ReadonlyMap<string, ContractDocument>): { plan: ExportPlan; bodies: FileWithBody[] } {
  const bodies = siteFiles(build, day, contract);
  const source = { has: (p: string) => build.files.has(p), resolve: (k: EntityKind, raw: string) => build.resolver.resolve(k, raw), aliases: (k: EntityKind) => build.resolver.aliases(k) };
  const redirects = aliasRedirects(source, bodies.map((b) => b.file.urlPath));
  return { plan: checkPlan({ files: bodies.map((b) => b.file), redirects }), bodies };
}
