/**
 * releases.json: the published releases (release-id.ts), newest first, each with its counts, the SHA-256
 * of its archive and what changed against the release before.
 */
import { z } from 'zod';
import { LICENSE, LICENSE_URL } from './open-feeds.ts';
import { ReleaseId } from './release-id.ts';

export const RELEASES_PATH = 'data/api/v1/releases.json';
/** at most this many cells are listed per kind of change (the counts are always complete) */
export const RELEASE_LIST_LIMIT = 10;

const url = z.string().url();
const CellRef = z
  .object({
    name: z.string().describe('the cell in words: "Cardiology", "Cardiology in California", "Texas (all specialties)"'),
    feed_url: url,
    citation_url: url,
  })
  .strict();

const ListedCells = z
  .object({
    count: z.number().int().nonnegative(),
    cells: z.array(CellRef).describe(`the first ${RELEASE_LIST_LIMIT} by name (none for releases older than the newest 30: counts only)`),
  })
  .strict();

export const FigureMove = z
  .object({
    cell: CellRef,
    figure: z.enum(['median', 'mean', 'p10', 'p25', 'p75', 'p90']),
    from: z.number(),
    to: z.number(),
    change_pct: z.number().describe('(to - from) / from, in percent, one decimal'),
  })
  .strict();

export const ReleaseChanges = z
  .object({
    previous: ReleaseId,
    reports_added: z.number().int().describe('change of the reports used in the published national figures (specialties.json n, a sum of perturbed counts: each moves by up to 2); negative when reports were removed or moved below a floor'),
    newly_published: ListedCells.describe('cells withheld in the previous release and published in this one'),
    newly_withheld: ListedCells.describe('cells published in the previous release and withheld in this one'),
    figures_moved: z.number().int().nonnegative().describe('published cells (in both releases) with at least one figure that moved by more than its rounding unit ($1,000 when rounded, otherwise $1)'),
    largest_moves: z.array(FigureMove).describe(`the largest median moves in percent, up to ${RELEASE_LIST_LIMIT} (none for releases older than the newest 30)`),
  })
  .strict();
export type ReleaseChanges = z.infer<typeof ReleaseChanges>;

export const Release = z
  .object({
    release: ReleaseId,
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('the build date'),
    data_as_of: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('submission date of the newest approved report'),
    reports_used: z.number().int().nonnegative().describe('reports behind the published national figures of specialties (specialties.json n)'),
    specialties_published: z.number().int().nonnegative(),
    specialties: z.number().int().nonnegative(),
    archive_sha256: z.string().regex(/^[0-9a-f]{64}$/).describe('SHA-256 of this release\'s physpay-open-data.tar.gz: checks an archived copy'),
    disclosure_method: z.number().int().positive().default(2)
      .describe('version of the disclosure control that perturbed this release\'s figures (methodology page); figures of releases with different versions moved because of the method, not only the data (2 for releases made before it was recorded)'),
    changes: ReleaseChanges.nullable().describe('null for the first release listed'),
    urls: z
      .object({
        files: url.describe('the release\'s own copy of data/api/v1/: every feed and CSV as this release published it, at data/api/v1/releases/<release>/<path>'),
        archive: url,
        datapackage: url,
        citation_cff: url,
      })
      .strict()
      .optional()
      .describe('where this release is served, for as long as the publisher keeps it (`kept`); absent for releases made before releases had URLs'),
    datapackage_sha256: z.string().regex(/^[0-9a-f]{64}$/).optional().describe('SHA-256 of this release\'s datapackage.json'),
    basis: z
      .object({ from: z.number().int(), to: z.number().int() })
      .strict()
      .optional()
      .describe('the compensation years of this release\'s headline figures (full-time basis); a release whose years differ from the one before moved its figures for that reason too'),
  })
  .strict();
export type Release = z.infer<typeof Release>;

export const ReleasesFeed = z
  .object({
    title: z.string(),
    publisher: z.string(),
    license: z.literal(LICENSE),
    license_url: z.literal(LICENSE_URL),
    feed_url: url,
    citation_url: url.describe('the changelog page'),
    methodology_url: url,
    synthetic: z.boolean(),
    latest: ReleaseId,
    retention: z.string().describe('how long a release stays downloadable here, and where permanent copies are'),
    kept: z.array(ReleaseId).optional().describe('the releases served under data/api/v1/releases/<release>/ when this release was published (the builds the publisher keeps), newest first'),
    releases: z.array(Release).min(1).describe('newest first'),
  })
  .strict();
export type ReleasesFeed = z.infer<typeof ReleasesFeed>;
