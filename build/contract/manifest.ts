/**
 * The build manifest and summary, written into every build folder. The manifest lists every file with
 * its SHA-256 and size; the server's ETags come from it.
 */
import { z } from 'zod';

const sha = z.string().regex(/^[0-9a-f]{64}$/);

/** A precompressed variant of a file: its size and hash, checked like the file's when a build is loaded. */
const EncodedVariant = z.object({ bytes: z.number().int().nonnegative(), sha256: sha }).strict();

export const ManifestFile = z
  .object({
    sha256: sha.describe('hash of the file bytes'),
    bytes: z.number().int().nonnegative(),
    /** hash of the bytes with the attribution's access date masked: equal across builds when the data is equal */
    content_hash: sha,
    content_type: z.string(),
    /**
     * hash of the bytes with the access date and the release label (`"release": "<id>"`) masked, for files
     * that carry a release: equal across builds when the figures are equal, so an unchanged feed keeps its
     * file (and the release it last changed in). Absent when the file has no release label.
     */
    figures_hash: sha.optional(),
    /**
     * the access date written in this file's attribution lines, when it is not the build's build_date: the
     * file is an unchanged file of an earlier build, hard-linked rather than written again
     */
    access_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
    /** the precompressed gzip variant (`encoded/<path>.gz`), when the build made one (build/emit/precompress.ts) */
    gzip: EncodedVariant.optional(),
    /** the precompressed brotli variant (`encoded/<path>.br`): files without an access date only */
    br: EncodedVariant.optional(),
  })
  .strict();
export type ManifestFile = z.infer<typeof ManifestFile>;

export const Manifest = z
  .object({
    format: z.literal(1),
    build_id: z.string(),
    /** the date written into attribution lines of the files ("accessed <date>") */
    build_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    files: z.record(z.string(), ManifestFile),
  })
  .strict();
export type Manifest = z.infer<typeof Manifest>;

/** build.json: what the build did, and the figures the next build's sanity diff compares with. */
export const BuildSummary = z
  .object({
    build_id: z.string(),
    created_at: z.string(),
    build_date: z.string(),
    base_url: z.string(),
    publisher: z.string(),
    synthetic: z.boolean(),
    data_as_of: z.string(),
    /**
     * reports used: the reports behind the published national figures (specialties.json n: the headline
     * compensation years on a full-time basis, outliers left out), the number releases.json and the home
     * page show. In a build.json without approved_reports (written before it was recorded) it is the count of
     * approved reports instead: summaryCounts reads both kinds.
     */
    reports_used: z.number().int().nonnegative(),
    /** every approved report the build read (the keyed API's population) */
    approved_reports: z.number().int().nonnegative().optional(),
    specialties_published: z.number().int().nonnegative(),
    /** national median per published specialty (open data figures) */
    medians: z.record(z.string(), z.number()),
    /** national n per specialty */
    counts: z.record(z.string(), z.number().int()),
    files: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    forced: z.boolean(),
    /** the import batches whose approved reports the build holds (absent in builds made before it was recorded) */
    batches: z.array(z.number().int().positive()).optional(),
  })
  .strict();
export type BuildSummary = z.infer<typeof BuildSummary>;

/**
 * The two counts of a build: approved reports read, and reports used (null for a build.json written before
 * approved_reports was recorded, whose reports_used counted approved reports).
 */
export function summaryCounts(s: Pick<BuildSummary, 'reports_used' | 'approved_reports'>): { approved: number; used: number | null } {
  return s.approved_reports === undefined ? { approved: s.reports_used, used: null } : { approved: s.approved_reports, used: s.reports_used };
}

/** "1,102 reports used of 1,431 approved" (an older build.json: "1,431 approved reports"). */
export function reportsText(s: Pick<BuildSummary, 'reports_used' | 'approved_reports'>): string {
  const { approved, used } = summaryCounts(s);
  const n = (v: number) => v.toLocaleString('en-US');
  return used === null ? `${n(approved)} approved reports` : `${n(used)} reports used of ${n(approved)} approved`;
}

/** The release label of a public JSON document as canonical JSON writes it (masked by figures_hash). */
export function releaseToken(release: string): string {
  return `"release": "${release}"`;
}

/**
 * Every place a document names the release it last changed in, as canonical JSON writes it: the label, its
 * date (`modified`), its per-release URL (`release_url`, and in the attribution line) and the attribution's
 * words. figures_hash masks them all, so a document whose figures did not change keeps its file.
 */
export function releaseTokens(release: string): string[] {
  const date = release.split('.')[0]!;
  return [
    releaseToken(release), `"modified": "${date}"`, `/releases/${release}/`, `release ${release},`,
    // the same in the pages (build/pages: the meta line, JSON-LD dateModified) and the sitemap's lastmod
    `<time datetime="${date}" data-field="modified">${date}</time>`, `<span data-field="release">${release}</span>`, `"dateModified":"${date}"`, `<lastmod>${date}</lastmod>`,
  ];
}

/** Masks the access date of attribution lines, so content hashes do not change with the date alone. */
export function accessDateToken(date: string): string {
  return `accessed ${date})`;
}
