/**
 * The one build orchestrator: read -> compute -> validate -> stage -> diff -> publish.
 *
 * Nothing is visible to readers until the last step: files go to builds/.staging-<id>/, every file is
 * validated (schema + publication floors), the manifest is written last inside staging, the staging
 * folder is renamed to builds/<id>, and only then is `current` switched (an atomic rename). A build that
 * fails or is killed at any point leaves `current` untouched; its staging folder is removed by the next run.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openReportsDb } from './db/open.ts';
import { MIGRATIONS, schemaVersion } from './db/migrations.ts';
import { nationalFacts } from './compute/national.ts';
import { readDataset } from './source/read.ts';
import { buildOpenFeeds, type FeedOptions } from './compute/open-feeds.ts';
import { DEFINITIONS_PATH, definitionsDocument } from './contract/definitions.ts';
import { DEFAULT_HEADLINE_YEARS, headlineBasis, openPopulations } from './compute/headline.ts';
import {
  blsInfo, keyedColumnsFromDataset, keyedIndex, keyedNationalFigures, keyedReportsArtifact, keyedSpecialty, summarizeSpecialty, KEYED_DEFAULTS, type KeyedColumns,
  type KeyedOptions, type KeyedSpecialtySummary,
} from './compute/keyed.ts';
import { createKeyedPool, defaultKeyedThreads, type KeyedPool } from './compute/keyed-pool.ts';
import { compareBuilds, DEFAULT_THRESHOLDS, undoneSince, type DiffThresholds, type UndoneBatch } from './compute/diff.ts';
import { dayToIso } from './compute/dataset.ts';
import { keyedPaths } from './contract/keyed-artifacts.ts';
import { keyedVsOpen, type NationalFigures } from './compute/compare.ts';
import { accuracyTable, specialtyAccuracy, type AccuracyRow, type SpecialtyAccuracy } from './compute/disclosure-accuracy.ts';
import { BuildSummary, type Manifest, type ManifestFile } from './contract/manifest.ts';
import { manifestEntry, sha256, validateArtifact } from './contract/validate.ts';
import { canonicalJson, compactJson } from './emit/json.ts';
import { acquireLock, buildReleases, buildsDir, currentBuildId, fsyncDir, isPinned, listBuilds, pruneBuilds, readManifest, removeStaleStaging, switchCurrent, writeFileDurable } from './emit/store.ts';
import { silentProgress, type Progress } from './emit/progress.ts';
import { createWriter, WriteError, type FileWriter } from './emit/writer.ts';
import { buildVariants, variantPath, type ContentCoding } from './emit/precompress.ts';
import { renderSite } from './pages/site.ts';
import { siteFiles } from './pages/sitemap.ts';
import { FAVICON_SVG, faviconIco } from './pages/favicon.ts';
import { buildOpenCsv } from './compute/open-csv.ts';
import { ARCHIVE_PATH, ARCHIVE_SHA256_PATH, DATA_PACKAGE_PATH, dataPackage, openDataArchive } from './compute/data-package.ts';
import { DEFAULT_TOP_CODE } from './import/bls.ts';
import { RELEASES_PATH, type Release, type ReleaseChanges } from './contract/releases.ts';
import { RELEASE_CITATION_CFF_PATH, cellFigures, nextReleaseId, releaseChanges, releaseEntry, releasesDocument, type CellFigures } from './compute/releases.ts';
import { CHANGELOG_PATH, CITATION_CFF_PATH, citationCff, renderChangelogPage } from './pages/changelog.ts';
import { pageFile, siteContextFor } from './pages/site.ts';
import { LICENSE, LICENSE_URL, pagePaths, type SpecialtiesFeed } from './contract/open-feeds.ts';
import { schemaForPath } from './contract/artifacts.ts';
import { accessDateToken } from './contract/manifest.ts';
import { dataSwitch, switchRefusal, type DataSwitch } from './compute/data-switch.ts';

export interface BuildOptions {
  db: string;
  out: string;
  baseUrl: string;
  publisher: string;
  /** date written into attribution lines; default: today (UTC) from `now` */
  buildDate?: string;
  keep: number;
  /** complete compensation years in the open data's headline figures (headline.ts); default 3 */
  headlineYears?: number;
  force: boolean;
  thresholds: DiffThresholds;
  keyed: KeyedOptions;
  /** fsync every file (default true) */
  durable: boolean;
  now: () => Date;
  progress: Progress;
  /** write the public HTML pages (default true); CSV downloads are always written */
  pages?: boolean;
  /**
   * write precompressed gzip/brotli variants of the public files under encoded/ (default true; README:
   * "Compression"). Off only in tests that do not serve the build, to save its time.
   */
  precompress?: boolean;
  /** extra files to add to public/, computed from the feeds; path -> bytes */
  extraPublic?: (feeds: ReturnType<typeof buildOpenFeeds>) => Map<string, string>;
  /** test hook: may alter a file's bytes after it is serialised, before it is validated */
  tamper?: (path: string, bytes: Buffer) => Buffer;
  /**
   * Do not publish a build whose files (public and private trees) have the same content hashes as the
   * current build's: status `unchanged`, and its staging folder is removed. `physpay build` always sets it.
   */
  skipUnchanged?: boolean;
  /** publish a first build (no current build yet) from a DB with no approved reports; refused otherwise */
  allowEmpty?: boolean;
  /** publish a DB marked synthetic over a current build of real reports (data-switch.ts); refused otherwise */
  allowSyntheticOverReal?: boolean;
  /** publish a DB of real reports over a current build of synthetic demo data; refused otherwise */
  allowRealOverSynthetic?: boolean;
  /** worker threads for the keyed artifacts (0 = in this thread); default: defaultKeyedThreads(reports) */
  keyedThreads?: number;
}

export const DEFAULT_BUILD_OPTIONS = {
  baseUrl: 'http://localhost:8080',
  publisher: 'PhysPay',
  keep: 7,
  force: false,
  thresholds: DEFAULT_THRESHOLDS,
  keyed: KEYED_DEFAULTS,
  durable: true,
  progress: silentProgress,
} satisfies Partial<BuildOptions>;

export class BuildError extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [],
    /** true when the build was refused by a publishing rule (sanity diff, empty first build), not broken */
    readonly refused = false,
    /** the CLI's exit code: 2 for a refusal that a flag of the command line answers (nothing was done) */
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

export interface BuildResult {
  /** the new build's id (a build that was not published was removed again) */
  id: string;
  /** the new build's folder when published; otherwise the folder of the build that stays current */
  dir: string;
  summary: BuildSummary;
  published: boolean;
  /** published; unchanged = same content as the current build; pinned = the current build is pinned */
  status: 'published' | 'unchanged' | 'pinned';
  /** the build `current` pointed at before this build (null for a first build) */
  previous: string | null;
  /** files added, changed (content hash) or removed compared with the previous build; every file for a first build */
  filesChanged: number;
  /** files of the previous build reused unchanged (hard links, not written again) */
  filesReused: number;
  seconds: number;
  pruned: string[];
  diffWarnings: string[];
  /** how far the disclosure control moved the keyed API's percentiles (the methodology page's table) */
  disclosureAccuracy: AccuracyRow[];
  /** published with a switch between synthetic and real data allowed by its flag (null: no switch) */
  dataSwitch: DataSwitch | null;
}

/** Paths whose content hash differs between two manifests' file lists (added, changed or removed). */
export function changedFiles(before: Manifest['files'] | null, after: Manifest['files']): number {
  if (!before) return Object.keys(after).length;
  let n = 0;
  for (const [path, f] of Object.entries(after)) if (before[path]?.content_hash !== f.content_hash) n++;
  for (const path of Object.keys(before)) if (!(path in after)) n++;
  return n;
}

/** The files every release rewrites (releases.json, the changelog, CITATION.cff). */
export const RELEASE_FILES = new Set([`public/${RELEASES_PATH}`, `public/${pageFile(CHANGELOG_PATH)}`, `public/${CITATION_CFF_PATH}`, `public/${RELEASE_CITATION_CFF_PATH}`]);

function withoutRelease(files: Manifest['files']): Manifest['files'] {
  return Object.fromEntries(Object.entries(files).filter(([p]) => !RELEASE_FILES.has(p)));
}


const CELL_KINDS = new Set(['specialty', 'specialtyState', 'state']);

/**
 * What changed since release `previous` (the build in `previousDir`): the cells (specialties nationally and
 * in states, states) of the feeds whose figures changed, compared with the same feeds of that build.
 */
function changesSince(
  previous: Release,
  previousDir: string,
  previousFiles: Manifest['files'] | null,
  files: Manifest['files'],
  feeds: ReturnType<typeof buildOpenFeeds>,
  specialties: SpecialtiesFeed,
): ReleaseChanges {
  const same = (a: ManifestFile | undefined, b: ManifestFile | undefined) => !!a && !!b && (a.figures_hash ?? a.content_hash) === (b.figures_hash ?? b.content_hash);
  const earlier = (path: string) => JSON.parse(readFileSync(join(previousDir, 'public', path), 'utf8'));
  const before: CellFigures[] = [];
  const after: CellFigures[] = [];
  const now = new Set<string>();
  for (const f of feeds) {
    if (!CELL_KINDS.has(f.kind)) continue;
    const p = `public/${f.path}`;
    now.add(p);
    if (same(previousFiles?.[p], files[p])) continue;
    after.push(cellFigures(f.path, f.doc as Parameters<typeof cellFigures>[1]));
    if (previousFiles?.[p]) before.push(cellFigures(f.path, earlier(f.path)));
  }
  for (const p of Object.keys(previousFiles ?? {})) {
    const kind = schemaForPath(p)?.feed;
    if (kind && CELL_KINDS.has(kind) && !now.has(p)) before.push(cellFigures(p.slice('public/'.length), earlier(p.slice('public/'.length))));
  }
  return releaseChanges(previous.release, before, after, { before: previous.reports_used, after: specialties.n ?? 0 });
}

function stampOf(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1Z');
}

/** The current build's summary (build.json), or null when it cannot be read (the sanity diff then says so). */
function currentSummary(out: string, id: string): BuildSummary | null {
  try {
    return BuildSummary.parse(JSON.parse(readFileSync(join(buildsDir(out), id, 'build.json'), 'utf8')));
  } catch {
    return null;
  }
}

/** A reports DB from an older physpay is migrated once (e.g. it gets its disclosure-control secret). */
function migrateIfBehind(path: string): void {
  const probe = openReportsDb(path, { readonly: true });
  let behind: boolean;
  try {
    behind = schemaVersion(probe) < MIGRATIONS[MIGRATIONS.length - 1]!.version;
  } finally {
    probe.close();
  }
  if (behind) openReportsDb(path).close();
}

/** The reports DB's undone import batches (read-only), for the sanity-diff refusal's likely cause. */
function undoneBatches(path: string): UndoneBatch[] {
  const db = openReportsDb(path, { readonly: true });
  try {
    return db.prepare("SELECT id, file_name, status, undone_at, reports_removed FROM import_batches WHERE status = 'undone'").all() as UndoneBatch[];
  } finally {
    db.close();
  }
}

export function runBuild(opts: BuildOptions): BuildResult {
  const started = performance.now();
  const { progress } = opts;
  const now = opts.now();
  const buildDate = opts.buildDate ?? now.toISOString().slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(buildDate)) throw new BuildError(`build date must be YYYY-MM-DD (got ${buildDate})`);
  let baseUrl: string;
  try {
    const u = new URL(opts.baseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
    baseUrl = u.toString().replace(/\/+$/, '');
  } catch {
    throw new BuildError(`--base-url must be an http(s) URL (got ${opts.baseUrl})`);
  }

  // A wrong --db (missing, not SQLite, a service DB) is refused before the dist-data folder is touched.
  openReportsDb(opts.db, { readonly: true }).close();
  const release = acquireLock(opts.out);
  let writer: FileWriter | null = null;
  let pool: KeyedPool | null = null;
  const staging = join(buildsDir(opts.out), `.staging-${stampOf(now)}-${process.pid}`);
  try {
    removeStaleStaging(opts.out);
    mkdirSync(staging, { recursive: true });
    const out = createWriter(opts.durable);
    writer = out;

    progress.stage('reading approved reports', opts.db);
    migrateIfBehind(opts.db);
    const db = openReportsDb(opts.db, { readonly: true });
    let ds;
    let batches: number[];
    try {
      ds = readDataset(db);
      batches = (db.prepare("SELECT DISTINCT batch_id FROM reports WHERE status = 'approved' AND batch_id IS NOT NULL ORDER BY batch_id").pluck().all() as number[]);
    } finally {
      db.close();
    }
    if (ds.reports.count === 0 && !opts.allowEmpty && !currentBuildId(opts.out)) {
      throw new BuildError(
        `refusing to publish a first build with no approved reports (${opts.db}); approve reports first (physpay moderate approve), or pass --allow-empty to publish an empty build`,
        [],
        true,
      );
    }
    // Synthetic demo data over a build of real reports, or the reverse: only with the flag named for it.
    const currentId = currentBuildId(opts.out);
    const switched = currentId ? dataSwitch(currentSummary(opts.out, currentId)?.synthetic ?? null, ds.synthetic) : null;
    if (switched && !(switched === 'synthetic-over-real' ? opts.allowSyntheticOverReal : opts.allowRealOverSynthetic)) {
      throw new BuildError(switchRefusal(switched, opts.db, currentId!), [], true, 2);
    }
    let maxDay = -Infinity;
    for (const d of ds.reports.submittedDay) if (d > maxDay) maxDay = d;
    const dataAsOf = Number.isFinite(maxDay) ? dayToIso(maxDay) : buildDate;

    // The build being served: its files are compared with ours, and those unchanged are reused.
    const previousId = currentBuildId(opts.out);
    let previousFiles: Manifest['files'] | null = null;
    let previousDate = buildDate;
    if (previousId) {
      try {
        const m = readManifest(join(buildsDir(opts.out), previousId));
        previousFiles = m.files;
        previousDate = m.build_date;
      } catch {
        previousFiles = null; // unreadable: treated as different, nothing reused
      }
    }
    // The releases so far (the current build's releases.json) and this build's release id.
    const history = previousId ? buildReleases(join(buildsDir(opts.out), previousId)) : [];
    // a release of a build rolled back from is still on disk: its id is never given again
    const kept = listBuilds(opts.out).flatMap((b) => buildReleases(join(buildsDir(opts.out), b.id)).slice(0, 1));
    const release = nextReleaseId([...history, ...kept.filter((r) => !history.some((h) => h.release === r.release))], buildDate);

    const files: Record<string, ManifestFile> = {};
    const problems: string[] = [];
    let bytesTotal = 0;
    let reused = 0;
    let emitted = 0;
    /**
     * Validate a file and hand it to the writer thread. A file whose content (access date masked) equals the
     * current build's is instead a hard link to that file, with the access date it carries recorded in the
     * manifest (the server fills in the day's date either way, so it serves the same bytes and ETag).
     */
    /** files that are an earlier build's, whose bytes differ from this build's (access date, release label) */
    const relabelled = new Set<string>();
    /** files that are an earlier build's, hard-linked (their figures did not change) */
    const linked = new Set<string>();
    const emit = (path: string, text: string | Buffer, validated = false) => {
      if (++emitted % 64 === 0) pool?.pump(); // keyed threads: take finished results, hand out more work
      let bytes: Buffer = typeof text === 'string' ? Buffer.from(text) : text;
      if (opts.tamper) bytes = opts.tamper(path, bytes);
      const found = validated ? [] : validateArtifact(path, bytes); // validated: by the keyed thread that made it
      if (found.length) {
        problems.push(...found);
        return;
      }
      const entry = manifestEntry(path, bytes, buildDate, release);
      const before = previousFiles?.[path];
      bytesTotal += bytes.length;
      // equal figures (access date and release label masked): the earlier file, with its release, stays
      // (a page rendered from reused feeds carries their earlier release: its content equals the earlier page's)
      if (before && before.content_type === entry.content_type
        && ((before.figures_hash ?? before.content_hash) === (entry.figures_hash ?? entry.content_hash) || before.content_hash === entry.content_hash)) {
        out.link(join(buildsDir(opts.out), previousId!, path), join(staging, path));
        linked.add(path);
        const date = before.access_date ?? previousDate;
        if (before.sha256 === entry.sha256) files[path] = entry;
        else {
          relabelled.add(path);
          const { access_date: _, gzip: _gz, br: _br, ...plain } = before;
          files[path] = date === buildDate ? plain : { ...plain, access_date: date };
        }
        // the earlier file's variants go with it (linked); a file of a build made before variants gets them now
        if (path.startsWith('public/')) {
          if (before.gzip || before.br) {
            for (const coding of ['gzip', 'br'] as const) {
              if (!before[coding]) continue;
              out.link(join(buildsDir(opts.out), previousId!, variantPath(path, coding)), join(staging, variantPath(path, coding)));
              files[path]![coding] = before[coding];
            }
          } else {
            const earlier = before.sha256 === entry.sha256 ? bytes : readFileSync(join(buildsDir(opts.out), previousId!, path));
            writeVariants(path, earlier, entry.content_type, before.sha256 === entry.sha256 ? buildDate : date);
          }
        }
        reused++;
        return;
      }
      out.write(join(staging, path), bytes);
      files[path] = entry;
      if (path.startsWith('public/')) writeVariants(path, bytes, entry.content_type, buildDate);
    };
    /** The precompressed variants of a new public file (build/emit/precompress.ts), written beside it under encoded/. */
    const writeVariants = (path: string, bytes: Buffer, contentType: string, accessDate: string) => {
      if (opts.precompress === false) return;
      const variants = buildVariants(bytes, contentType, Buffer.from(accessDateToken(accessDate)));
      for (const [coding, v] of Object.entries(variants) as [ContentCoding, Buffer][]) {
        out.write(join(staging, variantPath(path, coding)), v);
        files[path]![coding] = { bytes: v.length, sha256: sha256(v) };
      }
    };
    /**
     * The bytes a public file has in this build, with this build's access date: the new bytes, or those of
     * the earlier file it reuses (its own release label), for the archive, which must equal what is served.
     */
    const builtBytes = (path: string, fresh: Buffer): Buffer => {
      if (!relabelled.has(`public/${path}`)) return fresh;
      const f = files[`public/${path}`]!;
      const earlier = readFileSync(join(buildsDir(opts.out), previousId!, 'public', path));
      const token = accessDateToken(f.access_date ?? buildDate);
      return earlier.includes(token) ? Buffer.from(earlier.toString('utf8').split(token).join(accessDateToken(buildDate))) : earlier;
    };

    progress.stage('computing open feeds', `${ds.reports.count.toLocaleString('en-US')} approved reports`);
    const feedOptions: FeedOptions = { baseUrl, publisher: opts.publisher, accessDate: buildDate, release };
    const facts = nationalFacts(ds);
    const partialFrom = Number(dataAsOf.slice(0, 4)); // the newest submissions' year is still being reported
    const keyedNational = new Map<string, NationalFigures>();
    const regions = [...new Set(ds.states.map((st) => st.region))];
    const regionOfState = Int32Array.from(ds.states, (st) => regions.indexOf(st.region));
    const accuracy: SpecialtyAccuracy[] = [];
    /** what the pages need of a specialty's keyed columns: its national figures and its share of the accuracy table */
    const measure = (slug: string, columns: KeyedColumns) => {
      keyedNational.set(slug, keyedNationalFigures(columns));
      accuracy.push(specialtyAccuracy(columns, regionOfState));
    };
    const summaries: KeyedSpecialtySummary[] = [];
    const threadSummaries: (KeyedSpecialtySummary | null)[] = ds.specialties.map(() => null);
    let threadError: string | null = null;

    // The keyed stage (the biggest) runs on worker threads beside the open feeds and pages when the build is
    // big enough to pay for starting them; the same functions either way, so the same bytes.
    const threads = opts.keyedThreads ?? (opts.tamper ? 0 : defaultKeyedThreads(ds.reports.count));
    if (threads > 0) {
      // A thread's results are emitted as they arrive (emit pumps the pool), like any other file.
      const p = createKeyedPool(threads, (r) => {
        if (r.error) {
          threadError ??= r.si < 0 ? r.error : `computing the keyed artifacts of ${ds.specialties[r.si]!.slug} failed: ${r.error}`;
          return;
        }
        for (const f of r.files) {
          if (f.problems.length) problems.push(...f.problems);
          else emit(f.path, Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength), true);
        }
        threadSummaries[r.si] = r.summary;
      });
      pool = p;
      const states = ds.states.map((st) => ({ code: st.code, region: st.region }));
      // largest first, so no thread is left with a big one at the end
      const bySize = ds.specialties.map((_, si) => si).sort((a, b) => (ds.specialtyRange[b]!.end - ds.specialtyRange[b]!.start) - (ds.specialtyRange[a]!.end - ds.specialtyRange[a]!.start) || a - b);
      for (const si of bySize) {
        const sp = ds.specialties[si]!;
        // pages need every national figure before the threads are done; the columns are made again when a
        // thread takes the specialty (cheap), so the whole dataset's columns are never held at once
        measure(sp.slug, keyedColumnsFromDataset(ds, si, opts.keyed, facts, partialFrom));
        p.queue(() => ({
          si, slug: sp.slug, name: sp.name, bls: blsInfo(ds, si), states, columns: { ...keyedColumnsFromDataset(ds, si, opts.keyed, facts, partialFrom), exactTotal: undefined },
          paths: { specialty: keyedPaths.specialty(sp.slug), reports: keyedPaths.reports(sp.slug) },
        }));
      }
      p.pump();
    }

    const populations = openPopulations(ds, headlineBasis(partialFrom, opts.headlineYears ?? DEFAULT_HEADLINE_YEARS));
    const feeds = buildOpenFeeds(ds, feedOptions, populations);
    const siteOptions = { baseUrl, publisher: opts.publisher, winsorLower: opts.keyed.winsorLower, winsorUpper: opts.keyed.winsorUpper, blsTopCode: DEFAULT_TOP_CODE,
      specialtyAliases: new Map(ds.specialties.map((s) => [s.slug, s.aliases])) };
    progress.stage('writing open feeds', `${feeds.length.toLocaleString('en-US')} files`);
    // every feed and CSV, then the data package describing the CSVs, then one archive of all of them
    const openFiles = new Map<string, Buffer>();
    for (const f of feeds) {
      const bytes = Buffer.from(canonicalJson(f.doc));
      emit(`public/${f.path}`, bytes);
      const served = builtBytes(f.path, bytes);
      openFiles.set(f.path, served);
      // an unchanged feed keeps its earlier file (its release, modified date and release URL): the pages, CSVs
      // and the archive show that document, as it is served
      if (served !== bytes) f.doc = JSON.parse(served.toString('utf8')) as Record<string, unknown>;
    }
    const csvs = buildOpenCsv(feeds);
    for (const [path, text] of csvs) {
      openFiles.set(path, Buffer.from(text));
      emit(`public/${path}`, text);
    }
    // what every figure means (definitions.ts): served, in the archive and every release's files
    const definitions = Buffer.from(canonicalJson(definitionsDocument(baseUrl, opts.publisher)));
    openFiles.set(DEFINITIONS_PATH, definitions);
    emit(`public/${DEFINITIONS_PATH}`, definitions);
    const pkg = Buffer.from(canonicalJson(dataPackage({ baseUrl, publisher: opts.publisher, dataAsOf, csv: csvs })));
    openFiles.set(DATA_PACKAGE_PATH, pkg);
    emit(`public/${DATA_PACKAGE_PATH}`, pkg);
    // the archive says when it was built: when none of its files changed, the earlier archive stays
    const previousArchive = previousId && [...openFiles.keys()].every((p) => linked.has(`public/${p}`)) && previousFiles?.[`public/${ARCHIVE_PATH}`]
      ? { archive: readFileSync(join(buildsDir(opts.out), previousId, 'public', ARCHIVE_PATH)), sha256Line: readFileSync(join(buildsDir(opts.out), previousId, 'public', ARCHIVE_SHA256_PATH), 'utf8') }
      : null;
    const bundle = previousArchive ?? openDataArchive(openFiles, buildDate);
    emit(`public/${ARCHIVE_PATH}`, bundle.archive);
    emit(`public/${ARCHIVE_SHA256_PATH}`, bundle.sha256Line);

    // The release: what changed since the previous one (from the feeds just emitted and the previous
    // build's), for releases.json, the changelog page and CITATION.cff.
    const specialtiesDoc = feeds.find((f) => f.kind === 'specialties')!.doc as SpecialtiesFeed;
    // the releases served after this one is published: the builds pruneBuilds keeps (the newest --keep, this
    // one among them, and pinned ones)
    const keptReleases = [release, ...listBuilds(opts.out).flatMap((b, i) => (i < opts.keep - 1 || b.pinned || b.current
      ? buildReleases(join(buildsDir(opts.out), b.id)).slice(0, 1).map((r) => r.release)
      : []))];
    const releasesDoc = releasesDocument({
      baseUrl, publisher: opts.publisher, synthetic: ds.synthetic, keep: opts.keep, kept: keptReleases, history, feedPath: RELEASES_PATH, changelogPath: CHANGELOG_PATH,
      methodologyPath: pagePaths.methodology(), license: LICENSE, licenseUrl: LICENSE_URL,
      entry: releaseEntry({
        release, date: buildDate, dataAsOf, specialties: specialtiesDoc, archiveSha256: sha256(bundle.archive), baseUrl, datapackageSha256: sha256(pkg),
        changes: history[0] && previousId ? changesSince(history[0], join(buildsDir(opts.out), previousId), previousFiles, files, feeds, specialtiesDoc) : null,
      }),
    });

    const keyedInProcess = () => {
      for (let si = 0; si < ds.specialties.length; si++) {
        const { artifact, columns } = keyedSpecialty(ds, si, opts.keyed, facts, partialFrom);
        emit(keyedPaths.specialty(artifact.slug), compactJson(artifact));
        emit(keyedPaths.reports(artifact.slug), compactJson(keyedReportsArtifact(artifact.slug, columns)));
        summaries.push(summarizeSpecialty(ds.states, artifact));
        measure(artifact.slug, columns);
      }
    };
    const keyedFromThreads = () => {
      pool!.drain();
      if (threadError) throw new BuildError(threadError);
      for (const sm of threadSummaries) summaries.push(sm!);
    };
    if (!pool) {
      progress.stage('computing keyed-API artifacts', `${ds.specialties.length} specialties`);
      keyedInProcess();
    }

    if (opts.pages !== false) {
      const pages = renderSite(feeds, { ...siteOptions, keyedVsOpen: keyedVsOpen(feeds, keyedNational), disclosureAccuracy: accuracyTable(accuracy) });
      pages.set(pageFile(CHANGELOG_PATH), renderChangelogPage(siteContextFor(siteOptions, ds.synthetic), releasesDoc));
      progress.stage('writing public pages', `${pages.size.toLocaleString('en-US')} pages`);
      for (const [path, text] of pages) emit(`public/${path}`, text);
      // robots.txt, sitemap.xml (indexable pages only; the changelog without a lastmod, so its entry never changes) and the site icon
      for (const [path, bytes] of siteFiles(pages, baseUrl, { svg: FAVICON_SVG, ico: faviconIco() })) emit(`public/${path}`, bytes);
    }
    if (opts.extraPublic) for (const [path, text] of opts.extraPublic(feeds)) emit(`public/${path}`, text);
    if (pool) {
      progress.stage('computing keyed-API artifacts', `${ds.specialties.length} specialties on ${threads} thread${threads === 1 ? '' : 's'}`);
      keyedFromThreads();
    }
    emit(keyedPaths.index(), compactJson(keyedIndex(ds, summaries, opts.keyed, dataAsOf)));

    // The release files: new with every release, so left out of "did anything change" (RELEASE_FILES).
    emit(`public/${RELEASES_PATH}`, canonicalJson(releasesDoc));
    if (opts.pages !== false) {
      emit(`public/${CITATION_CFF_PATH}`, citationCff({ publisher: opts.publisher, baseUrl, latest: releasesDoc.releases[0]!, licenseSpdx: 'CC-BY-4.0', changelogUrl: `${baseUrl}${CHANGELOG_PATH}` }));
    }
    // the release's own CITATION.cff, served with its files (data/api/v1/releases/<release>/CITATION.cff)
    emit(`public/${RELEASE_CITATION_CFF_PATH}`, citationCff({ publisher: opts.publisher, baseUrl, latest: releasesDoc.releases[0]!, licenseSpdx: 'CC-BY-4.0', changelogUrl: `${baseUrl}${CHANGELOG_PATH}` }));

    progress.stage('validating', `${Object.keys(files).length.toLocaleString('en-US')} files`);
    out.finish(); // every file on disk (or the first write error)
    if (problems.length) {
      throw new BuildError(`${problems.length} artifact(s) failed validation; nothing was published`, problems);
    }

    // Summary and sanity diff against the build being served.
    const medians: Record<string, number> = {};
    const counts: Record<string, number> = {};
    for (const f of feeds) {
      if (f.kind !== 'specialty') continue;
      const d = f.doc as { specialty: { slug: string }; median: number | null; n: number | null };
      counts[d.specialty.slug] = d.n ?? 0;
      if (d.median !== null) medians[d.specialty.slug] = d.median;
    }
    const contentId = sha256(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)).map(([p, f]) => `${p}:${f.content_hash}`).join('\n')).slice(0, 10);
    const id = `${stampOf(now)}-${contentId}`;
    const summary: BuildSummary = {
      build_id: id,
      created_at: now.toISOString(),
      build_date: buildDate,
      base_url: baseUrl,
      publisher: opts.publisher,
      synthetic: ds.synthetic,
      data_as_of: dataAsOf,
      reports_used: specialtiesDoc.n ?? 0,
      approved_reports: ds.reports.count,
      specialties_published: Object.keys(medians).length,
      medians,
      counts,
      files: Object.keys(files).length,
      bytes: bytesTotal,
      forced: opts.force,
      batches,
    };

    progress.stage('comparing with the published build');
    // Content hashes mask the access date (the build date), and no file holds the build id or clock, so
    // equal hashes mean equal data.
    const filesChanged = changedFiles(previousFiles, files);
    const dataChanged = changedFiles(previousFiles && withoutRelease(previousFiles), withoutRelease(files));
    const notPublished = (status: 'unchanged' | 'pinned', diffWarnings: string[]): BuildResult => {
      rmSync(staging, { recursive: true, force: true });
      progress.done();
      return {
        id, dir: join(buildsDir(opts.out), previousId!), summary, published: false, status, previous: previousId, filesChanged: dataChanged, filesReused: reused,
        seconds: (performance.now() - started) / 1000, pruned: [], diffWarnings, disclosureAccuracy: accuracyTable(accuracy), dataSwitch: null,
      };
    };
    if (opts.skipUnchanged && previousFiles && dataChanged === 0) return notPublished('unchanged', []);
    let diffWarnings: string[] = [];
    let previousCreatedAt: string | null = null;
    if (previousId) {
      // An allowed switch between demo data and real reports is not diffed: the one says nothing about the other.
      if (!switched) {
        try {
          const prev = BuildSummary.parse(JSON.parse(readFileSync(join(buildsDir(opts.out), previousId, 'build.json'), 'utf8')));
          diffWarnings = compareBuilds(prev, summary, opts.thresholds);
          previousCreatedAt = prev.created_at;
        } catch (err) {
          diffWarnings = [`cannot read the previous build's summary (${(err as Error).message})`];
        }
      }
      // A pinned current build is never replaced; the sanity diff is only reported then.
      if (isPinned(opts.out, previousId)) return notPublished('pinned', diffWarnings);
      if (diffWarnings.length && !opts.force) {
        const cause = previousCreatedAt ? undoneSince(undoneBatches(opts.db), previousCreatedAt) : '';
        throw new BuildError(`the new build differs too much from ${previousId}; nothing was published (${cause ? `${cause}; ` : ''}re-run with --force to publish anyway)`, diffWarnings, true);
      }
    }

    progress.stage('publishing', id);
    const manifest: Manifest = { format: 1, build_id: id, build_date: buildDate, files };
    writeFileDurable(join(staging, 'build.json'), canonicalJson(summary), opts.durable);
    writeFileDurable(join(staging, 'manifest.json'), compactJson(manifest), opts.durable); // last file: marks a complete build
    const dir = join(buildsDir(opts.out), id);
    if (existsSync(dir)) throw new BuildError(`build ${id} already exists`);
    renameSync(staging, dir);
    fsyncDir(buildsDir(opts.out));
    switchCurrent(opts.out, id);
    const pruned = pruneBuilds(opts.out, opts.keep);
    progress.done();
    return {
      id, dir, summary, published: true, status: 'published', previous: previousId, filesChanged, filesReused: reused, seconds: (performance.now() - started) / 1000,
      pruned, diffWarnings, disclosureAccuracy: accuracyTable(accuracy), dataSwitch: switched,
    };
  } catch (err) {
    if (writer) {
      // let the writer thread stop writing into staging before it is removed
      try {
        writer.finish();
      } catch {
        // the build failed already; a write error adds nothing
      }
    }
    rmSync(staging, { recursive: true, force: true });
    if (err instanceof WriteError) throw new BuildError(`a file could not be written, nothing was published: ${err.message}`);
    throw err;
  } finally {
    writer?.close();
    pool?.close();
    release();
  }
}
