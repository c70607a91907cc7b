/**
 * Validation of one artifact's bytes against its schema and the publication floors (pure; pages and CSV
 * downloads are audited by compute/audit-files.ts: well-formed, figures within their floors). Used before a
 * build is published, by `physpay builds verify`, and by the server when it loads a build.
 */
import { createHash } from 'node:crypto';
import { schemaForPath } from './artifacts.ts';
import { auditDocument } from '../compute/audit.ts';
import { accessDateToken, releaseTokens, type Manifest, type ManifestFile } from './manifest.ts';
import { contentTypeFor } from './artifacts.ts';
import { auditCsv, auditPage } from '../compute/audit-files.ts';

export function sha256(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Manifest entry of a file; `buildDate` is the access date written into its attribution lines, `release`
 * the release label its JSON may carry (then figures_hash masks it too).
 */
export function manifestEntry(path: string, bytes: Buffer, buildDate: string, release?: string): ManifestFile {
  const token = accessDateToken(buildDate);
  const masked = bytes.includes(token) ? bytes.toString('utf8').split(token).join('accessed YYYY-MM-DD)') : bytes;
  const entry: ManifestFile = { sha256: sha256(bytes), bytes: bytes.length, content_hash: sha256(masked), content_type: contentTypeFor(path) };
  // A file that names a release (a feed's label, a page's "release ..." and dates, the sitemap's lastmod): its
  // figures_hash masks every such mention, so files equal but for the release they last changed in compare equal.
  const tokens = release === undefined ? [] : releaseTokens(release).filter((t) => masked.includes(t));
  if (tokens.length) {
    const date = release!.split('.')[0]!;
    let text = masked.toString();
    for (const t of tokens) text = text.split(t).join(t.split(release!).join('RELEASE').split(date).join('RELEASE'));
    entry.figures_hash = sha256(text);
  }
  return entry;
}

/** Problems with one file (empty when it is valid). */
export function validateArtifact(path: string, bytes: Buffer, expected?: ManifestFile): string[] {
  const problems: string[] = [];
  if (expected) {
    if (bytes.length !== expected.bytes) problems.push(`${path}: size ${bytes.length} differs from the manifest (${expected.bytes})`);
    else if (sha256(bytes) !== expected.sha256) problems.push(`${path}: SHA-256 differs from the manifest`);
  }
  if (path.startsWith('public/') && path.endsWith('.html')) return [...problems, ...auditPage(path, bytes.toString('utf8'))];
  if (path.startsWith('public/') && path.endsWith('.csv')) return [...problems, ...auditCsv(path, bytes.toString('utf8'))];
  const rule = schemaForPath(path);
  if (!rule) return problems;
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    return [...problems, `${path}: not JSON (${(err as Error).message})`];
  }
  const parsed = rule.schema.safeParse(doc);
  if (!parsed.success) {
    const first = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    problems.push(`${path}: does not match its schema: ${first}`);
  }
  if (rule.feed) for (const v of auditDocument(rule.feed, doc)) problems.push(`${path}: ${v.path || '(root)'}: ${v.problem}`);
  return problems;
}

/** Check that a manifest and a file list agree (nothing missing, nothing extra). */
export function compareFileSets(manifest: Manifest, present: string[]): string[] {
  // every file, and its precompressed variants (encoded/<path>.gz, .br)
  const listed = new Set(Object.entries(manifest.files).flatMap(([path, f]) => [path, ...(f.gzip ? [`encoded/${path}.gz`] : []), ...(f.br ? [`encoded/${path}.br`] : [])]));
  const problems: string[] = [];
  for (const p of present) if (!listed.has(p)) problems.push(`${p}: not in the manifest`);
  const have = new Set(present);
  for (const p of listed) if (!have.has(p)) problems.push(`${p}: listed in the manifest but missing`);
  return problems;
}
