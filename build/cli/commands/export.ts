/**
 * `physpay export --out <dir> [--data <dist-data>] [--build <id>] [--force] [--json]`: write a published
 * build (default: the current one) as a static site any static host can serve without a physpay process:
 * every public file with the bytes physpay serve sends today (the access date is the export day), the
 * API's contract documents, and beside them the headers and alias redirects in the formats hosts read
 * (_headers, _redirects, s3-metadata.json, nginx.conf). See docs/static-export.md.
 *
 * Everything is written into a new folder beside --out and renamed into place at the end, so --out never
 * holds half an export; a non-empty --out is replaced only with --force.
 *
 * `physpay export --release-archive <dir>` copies the build's release files instead (release-archive.ts).
 */
import type { Command } from 'commander';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { buildsDir, currentBuildId, listBuilds } from '../../emit/store.ts';
import { option, readSettings } from '../settings.ts';
import { CliError, type CliIo } from '../io.ts';
import { archiveRelease } from './release-archive.ts';

const BuildId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
const count = (n: number) => n.toLocaleString('en-US');
const MB = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** Is `inner` the folder `outer` or inside it? */
const within = (inner: string, outer: string) => inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : `${outer}${sep}`);

/** Check --out before anything is read or written; returns whether it exists (as a folder). */
function checkOut(out: string, data: string, force: boolean, given: string): boolean {
  if (within(out, data) || within(data, out)) {
    throw new CliError(`--out ${given} and --data overlap (${data}); write the export to a folder outside the dist-data folder`, 2);
  }
  if (!existsSync(out)) return false;
  if (!statSync(out).isDirectory()) throw new CliError(`--out ${given} is a file, not a folder; give an empty or new folder`, 2);
  const entries = readdirSync(out);
  if (entries.length && !force) {
    throw new CliError(`--out ${given} is not empty (${count(entries.length)} ${entries.length === 1 ? 'entry' : 'entries'}); give an empty or new folder, or --force to replace its contents`, 2);
  }
  return true;
}

/**
 * Put the finished `tmp` in the place of `out` (both in the same parent folder) with renames, so `out` never
 * holds half an export. Returns the previous folder, moved aside, for the caller to remove (or null).
 */
function swapInto(tmp: string, out: string, exists: boolean): string | null {
  if (!exists) {
    renameSync(tmp, out);
    return null;
  }
  const old = join(dirname(out), `.${basename(out)}.replaced-${process.pid}-${randomBytes(4).toString('hex')}`);
  renameSync(out, old);
  try {
    renameSync(tmp, out);
  } catch (err) {
    renameSync(old, out);
    throw err;
  }
  return old;
}

/** The build named by --build (checked), or the current one. */
function chooseBuild(dataDir: string, data: string, build: unknown): string {
  if (build !== undefined) {
    if (!BuildId.safeParse(build).success) throw new CliError(`--build must be a build id such as 20261116T030000000Z-1e48144948 (got ${JSON.stringify(build)}); see physpay builds list --out ${data}`, 2);
    const id = build as string;
    if (!listBuilds(dataDir).some((b) => b.id === id)) throw new CliError(`no build ${id} in ${data} (--data); see physpay builds list --out ${data}`, 2);
    return id;
  }
  const current = currentBuildId(dataDir);
  if (!current) throw new CliError(`no current build in ${data} (--data, PHYSPAY_DATA); publish one with physpay build, or name one with --build`);
  return current;
}

export function registerExportCommand(program: Command, io: CliIo): void {
  program
    .command('export')
    .description('write the current build as a static site: its files as served today, plus _headers, _redirects, s3-metadata.json and nginx.conf')
    .option('--out <dir>', 'folder to write the export to (required; created; must be empty unless --force)')
    .addOption(option('data'))
    .option('--build <id>', 'export this published build instead of the current one')
    .option('--force', 'replace the contents of a non-empty --out')
    .option('--release-archive <dir>', 'instead of a site: copy the build\'s release (archive, SHA-256, releases.json, datapackage.json, CITATION.cff) into <dir>/<release>/, never overwriting one; sync <dir> to object storage for permanent citation')
    .option('--json', 'print one JSON object {status, build_id, out, access_date, files, feeds, redirects, bytes, manifests}')
    .action(async (opts, cmd: Command) => {
      if (opts.releaseArchive !== undefined) {
        if (cmd.getOptionValueSource('out') === 'cli') throw new CliError('give either --out (a static site) or --release-archive (a release\'s files), not both', 2);
        const { data } = readSettings(opts, ['data']);
        const dataDir = resolve(data);
        const id = chooseBuild(dataDir, data, opts.build);
        const r = archiveRelease(join(buildsDir(dataDir), id), resolve(String(opts.releaseArchive)));
        if (opts.json) io.out(JSON.stringify({ ...r, build_id: id }));
        else io.out(`${r.status === 'archived' ? 'archived' : 'already archived (unchanged)'}: release ${r.release} of build ${id} in ${r.folder}: ${r.files.join(', ')}; archive SHA-256 ${r.archive_sha256}`);
        return;
      }
      // Only a flag names the export folder: the config file's "out" (like PHYSPAY_OUT) is physpay build's dist-data folder.
      if (opts.out === undefined || cmd.getOptionValueSource('out') !== 'cli') {
        throw new CliError('give the export folder as --out <dir> on the command line (PHYSPAY_OUT and the config file\'s "out" name the dist-data folder of physpay build, not an export)', 2);
      }
      const { data } = readSettings(opts, ['data']);
      const dataDir = resolve(data);
      const given = String(opts.out);
      const out = resolve(given);
      const force = Boolean(opts.force);

      const id = chooseBuild(dataDir, data, opts.build);
      const outExists = checkOut(out, dataDir, force, given);

      const { LoadedBuild, BuildLoadError } = await import('../../../server/builds/loaded-build.ts');
      const { utcDay } = await import('../../../server/http/clock.ts');
      const { contractDocuments } = await import('../../../server/open-data/contract-documents.ts');
      const { exportSite } = await import('../../../server/export/site.ts');
      const { manifests } = await import('../../../server/export/manifests.ts');
      const { ExportPlanError } = await import('../../../server/export/plan.ts');

      let build;
      try {
        build = await LoadedBuild.load(join(buildsDir(dataDir), id), id);
      } catch (err) {
        if (err instanceof BuildLoadError) throw new CliError(`cannot export build ${id}: ${err.message} (physpay builds verify ${id} --out ${data} lists its problems)`);
        throw err;
      }
      const day = utcDay(io.now());
      let site;
      let written;
      try {
        site = exportSite(build, day, contractDocuments());
        written = manifests(site.plan);
      } catch (err) {
        if (err instanceof ExportPlanError) throw new CliError(err.message);
        throw err;
      }

      const tmp = join(dirname(out), `.${basename(out)}.export-${process.pid}-${randomBytes(4).toString('hex')}`);
      let bytes = 0;
      let replaced: string | null;
      try {
        mkdirSync(dirname(out), { recursive: true });
        mkdirSync(tmp, { mode: 0o755 }); // readable by the web server's user, whatever the umask of a temp folder
        const made = new Set<string>([tmp]);
        for (const { file, body, gzip } of site.bodies) {
          const path = join(tmp, file.file);
          if (!within(path, tmp) || path === tmp) throw new CliError(`cannot export: ${file.file} would be written outside ${given}`);
          const parent = dirname(path);
          if (!made.has(parent)) {
            mkdirSync(parent, { recursive: true });
            made.add(parent);
          }
          writeFileSync(path, body);
          bytes += body.length;
          if (gzip) {
            writeFileSync(`${path}.gz`, gzip);
            bytes += gzip.length;
          }
        }
        for (const m of written) writeFileSync(join(tmp, m.name), m.text);
        replaced = swapInto(tmp, out, outExists);
      } catch (err) {
        rmSync(tmp, { recursive: true, force: true });
        if (err instanceof CliError || !(err as NodeJS.ErrnoException).code) throw err;
        throw new CliError(`cannot write the export to ${given}: ${(err as Error).message}; nothing was changed there`);
      }
      if (replaced) {
        try {
          rmSync(replaced, { recursive: true, force: true });
        } catch (err) {
          io.err(`warning: the export is in place, but the previous contents of ${given}, moved to ${replaced}, could not be removed: ${(err as Error).message}`);
        }
      }

      const files = site.plan.files.length;
      const feeds = site.plan.files.filter((f) => f.urlPath.startsWith('/data/api/v1/')).length;
      const redirects = site.plan.redirects.length;
      const manifestBytes = Object.fromEntries(written.map((m) => [m.name, Buffer.byteLength(m.text)]));
      if (opts.json) {
        io.out(JSON.stringify({ status: 'exported', build_id: id, out, access_date: day, files, feeds, redirects, bytes, manifests: manifestBytes }));
        return;
      }
      const shown = relative(process.cwd(), out) || '.';
      io.out(
        `exported build ${id} to ${shown.startsWith('..') ? out : shown}: ${count(files)} files (${count(feeds)} under /data/api/v1), ${count(redirects)} redirects, ${MB(bytes)}; ` +
          `access date ${day}; with ${written.map((m) => m.name).join(', ')}`,
      );
    });
}
