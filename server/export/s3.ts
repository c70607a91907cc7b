/**
 * `s3-metadata.json` (pure): what to upload to an S3 bucket (website hosting, usually behind CloudFront)
 * for each object key, named as the PutObject parameters: Body (the file, relative to the export root),
 * ContentType, CacheControl and Metadata for files; WebsiteRedirectLocation for the alias redirects (an
 * empty object that the website endpoint answers with a 301). Keys are URL paths without the leading slash
 * (pages have extensionless keys); the root page is the index document `index.html`. S3 metadata cannot
 * carry CORS or X-Content-Type-Options: `cors` is a bucket CORS configuration and `response_headers` the
 * headers for a CloudFront response headers policy.
 */
import { z } from 'zod';
import { preflightHeaders } from '../http/cors.ts';
import { PUBLIC_CACHE_CONTROL } from '../http/send.ts';
import { ExportPlanError, fileHeaders, redirectHeaders, type ExportPlan } from './plan.ts';

const FileObject = z.object({
  Body: z.string().min(1),
  ContentType: z.string().min(1),
  CacheControl: z.string().min(1),
  Metadata: z.record(z.string(), z.string()),
}).strict();

const RedirectObject = z.object({
  WebsiteRedirectLocation: z.string().startsWith('/'),
  CacheControl: z.string().min(1),
}).strict();

export const S3Metadata = z.object({
  format: z.literal('physpay-s3-metadata/1'),
  build: z.string().nullable(),
  index_document: z.literal('index.html'),
  objects: z.record(z.string().min(1), z.union([FileObject, RedirectObject])),
  cors: z.object({
    CORSRules: z.array(z.object({
      AllowedOrigins: z.array(z.string()),
      AllowedMethods: z.array(z.string()),
      AllowedHeaders: z.array(z.string()),
      ExposeHeaders: z.array(z.string()),
      MaxAgeSeconds: z.number().int(),
    }).strict()),
  }).strict(),
  response_headers: z.record(z.string(), z.string()),
}).strict();
export type S3Metadata = z.infer<typeof S3Metadata>;

/** The object key of a URL path: no leading slash; `/` is the index document. */
export function s3Key(urlPath: string): string {
  return urlPath === '/' ? 'index.html' : urlPath.slice(1);
}

export function s3Metadata(plan: ExportPlan): S3Metadata {
  const objects: S3Metadata['objects'] = {};
  const put = (key: string, value: S3Metadata['objects'][string]) => {
    if (key in objects) throw new ExportPlanError(`cannot export: two objects would have the S3 key ${key}`);
    objects[key] = value;
  };
  for (const f of plan.files) {
    put(s3Key(f.urlPath), {
      Body: f.file,
      ContentType: f.contentType,
      CacheControl: f.cacheControl,
      // S3 answers with its own ETag (an MD5); physpay's is kept as x-amz-meta-physpay-etag
      Metadata: { 'physpay-etag': f.etag, ...(f.build === null ? {} : { 'physpay-build': f.build }) },
    });
  }
  for (const r of plan.redirects) put(s3Key(r.from), { WebsiteRedirectLocation: r.to, CacheControl: PUBLIC_CACHE_CONTROL });
  const shared = Object.fromEntries(redirectHeaders().filter(([name]) => name !== 'Cache-Control'));
  const expose = (shared['Access-Control-Expose-Headers'] ?? '').split(',').map((h) => h.trim()).filter(Boolean);
  const preflight = preflightHeaders(undefined);
  const methods = (preflight['access-control-allow-methods'] ?? 'GET, HEAD').split(',').map((m) => m.trim()).filter((m) => m !== 'OPTIONS'); // S3 answers OPTIONS itself
  const builds = [...new Set(plan.files.map((f) => f.build).filter((b): b is string => b !== null))];
  return S3Metadata.parse({
    format: 'physpay-s3-metadata/1',
    build: builds.length === 1 ? builds[0] : null,
    index_document: 'index.html',
    objects,
    cors: { CORSRules: [{ AllowedOrigins: [shared['Access-Control-Allow-Origin'] ?? '*'], AllowedMethods: methods, AllowedHeaders: ['*'], ExposeHeaders: expose, MaxAgeSeconds: Number(preflight['access-control-max-age'] ?? 86400) }] },
    response_headers: shared,
  });
}

/** The JSON text of the file (one object key per line, for readable diffs). */
export function s3MetadataFile(plan: ExportPlan): string {
  const doc = s3Metadata(plan);
  const { objects, ...head } = doc;
  const entries = Object.entries(objects).map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  const top = JSON.stringify(head, null, 2).replace(/\n}$/, '');
  return `${top},\n  "objects": {\n${entries.join(',\n')}\n  }\n}\n`;
}
