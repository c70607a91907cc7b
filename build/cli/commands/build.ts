/** `physpay build` and `physpay builds list|verify|rollback|pin|unpin`. */
import type { Command } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BuildError, DEFAULT_BUILD_OPTIONS, runBuild, type BuildResult } from '../../run-build.ts';
import { ttyProgress, silentProgress } from '../../emit/progress.ts';
import { lineProgress, PROGRESS_HELP } from '../progress-lines.ts';
import { lastBuildPath, writeLastBuild } from '../../emit/last-build.ts';
import type { LastBuild } from '../../contract/last-build.ts';
import { acquireLock, buildsDir, currentBuildId, isPinned, listBuilds, pinBuild, pinnedBuilds, readManifest, switchCurrent, unpinBuild, StoreError } from '../../emit/store.ts';
import { diffBuilds, diffLines, type BuildSide } from '../../compute/builds-diff.ts';
import { verifyBuildDir } from '../../emit/verify.ts';
import { BuildSummary, reportsText } from '../../contract/manifest.ts';
import { givenExplicitly, option, readSettings } from '../settings.ts';
import { CliError, type CliIo } from '../io.ts';
import { onPublishFailure, runOnPublish, type OnPublishResult } from '../on-publish.ts';
import { switchWarning } from '../../compute/data-switch.ts';
import { batchesNotIn, batchRanges } from '../../compute/batch-list.ts';
import { RELEASES_PATH } from '../../contract/releases.ts';

const MB = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const count = (n: number) => n.toLocaleString('en-US');

/** A build the publishing rules refused (as opposed to one that broke): `status: "refused"` in --json. */
class Refusal extends CliError {}

function normalUrl(url: string): string {
  try {
    return new URL(url).toString().replace(/\/+$/, '');
  } catch {
    return url;
  }
}

/**
 * The default base URL (http://localhost:8080) is for local use: a run that did not give a base URL
 * (flag, variable or config file) may not publish over a build made with another one.
 */
function checkBaseUrl(out: string, baseUrl: string, explicit: boolean): void {
  if (explicit) return;
  const id = currentBuildId(out);
  if (!id) return;
  let published: string;
  try {
    published = BuildSummary.parse(JSON.parse(readFileSync(join(buildsDir(out), id, 'build.json'), 'utf8'))).base_url;
  } catch {
    return; // unreadable: the sanity diff reports it
  }
  if (normalUrl(published) === normalUrl(baseUrl)) return;
  throw new Refusal(
    `refusing to build: the current build ${id} was published with base URL ${published}, but this run would use the default ${normalUrl(baseUrl)} (local use only); give --base-url ${published} (or PHYSPAY_BASE_URL, or "baseUrl" in the config file) to keep it, or --base-url ${normalUrl(baseUrl)} to change it`,
    2,
  );
}

/**
 * The exit code of a build not published because the current build is pinned (without --allow-pinned): a
 * nightly job that exits 0 would hide that nothing has been published since the pin.
 */
export const EXIT_PINNED = 4;

/** The release a build published (the first entry of its releases.json), or null when it has none. */
function releaseOf(out: string, id: string): string | null {
  try {
    const doc = JSON.parse(readFileSync(join(buildsDir(out), id, 'public', RELEASES_PATH), 'utf8')) as { releases?: { release?: string }[] };
    return doc.releases?.[0]?.release ?? null;
  } catch {
    return null;
  }
}

/** The one line `physpay build` prints for each outcome. */
function outcomeLine(r: BuildResult): string {
  const sm = r.summary;
  const reports = reportsText(sm);
  if (r.status === 'unchanged') return `no change: same content as the current build ${r.previous} (${reports}, ${count(sm.files)} files, 0 changed); nothing published`;
  if (r.status === 'pinned') {
    return `not published: the current build ${r.previous} is pinned; the new build (${reports}, ${count(sm.files)} files, ${count(r.filesChanged)} changed) was validated and discarded (physpay builds unpin ${r.previous} to publish again, or --allow-pinned to accept this)`;
  }
  // reused: unchanged files of the current build, hard-linked rather than written again
  const files = r.previous ? `${count(sm.files)} files (${count(r.filesChanged)} changed since ${r.previous}; ${count(r.filesReused)} unchanged, reused)` : `${count(sm.files)} files written`;
  const pruned = r.pruned.length ? `; removed ${r.pruned.length === 1 ? 'the old build' : `${count(r.pruned.length)} old builds`} ${r.pruned.join(', ')} (--keep)` : '';
  return `built ${r.id}: ${reports}, ${files}, ${MB(sm.bytes)}, ${r.seconds.toFixed(1)} s${sm.synthetic ? ' (SYNTHETIC demo data)' : ''}; published as current${pruned}`;
}

export function registerBuildCommands(program: Command, io: CliIo): void {
  program
    .command('build')
    .description('compute every feed and keyed-API artifact from approved reports, validate, and publish atomically')
    .addOption(option('db').makeOptionMandatory())
    .addOption(option('out'))
    .addOption(option('baseUrl'))
    .addOption(option('publisher'))
    .addOption(option('buildDate'))
    .addOption(option('keep'))
    .addOption(option('headlineYears'))
    .addOption(option('maxCountDrop'))
    .addOption(option('maxMedianShift'))
    .addOption(option('winsorLower'))
    .addOption(option('winsorUpper'))
    .addOption(option('onPublish'))
    .option('--force', 'publish even when the sanity diff against the current build fails')
    .option('--no-fsync', 'do not flush each file to disk (faster; for throwaway builds)')
    .option('--no-precompress', 'do not write the gzip and brotli variants of the public files (faster; the server then sends them uncompressed)')
    .option('--allow-empty', 'publish a first build even when the reports DB has no approved reports')
    .option('--allow-synthetic-over-real', 'publish synthetic demo data over a current build of real reports (refused otherwise, even with --force)')
    .option('--allow-real-over-synthetic', 'publish real reports over a current build of synthetic demo data (refused otherwise, even with --force)')
    .option('--allow-pinned', `exit 0 when the current build is pinned and the new one is not published (exit 4 otherwise)`)
    .option('--progress', PROGRESS_HELP)
    .option('--json', 'print one JSON object on stdout: status published, unchanged, pinned, refused or failed (messages go to stderr), with the disclosure accuracy table')
    .action((opts, cmd: Command) => {
      const s = readSettings(opts, ['db', 'out', 'baseUrl', 'publisher', 'buildDate', 'keep', 'headlineYears', 'maxCountDrop', 'maxMedianShift', 'winsorLower', 'winsorUpper', 'onPublish']);
      if (s.winsorLower >= s.winsorUpper) throw new CliError(`--winsor-lower (PHYSPAY_WINSOR_LOWER) must be below --winsor-upper (PHYSPAY_WINSOR_UPPER) (got ${s.winsorLower} and ${s.winsorUpper})`, 2);
      const started = performance.now();
      const previous = currentBuildId(s.out);
      let hook: OnPublishResult | null = null;
      const progressLog = opts.progress ? lineProgress((line) => io.err(line), { command: 'build', steps: 8 }) : null;
      // last-build.json: the outcome of this attempt, whatever it is (README: Operations, "Monitoring builds")
      let record = null as Pick<LastBuild, 'outcome' | 'build_id' | 'message'> | null; // set by attempt()
      const startedAt = io.now();
      const attempt = () => {
        try {
          checkBaseUrl(s.out, s.baseUrl, givenExplicitly(cmd, 'baseUrl'));
          const r = runBuild({
            ...DEFAULT_BUILD_OPTIONS,
            db: s.db, out: s.out, baseUrl: s.baseUrl, publisher: s.publisher, buildDate: s.buildDate, keep: s.keep, headlineYears: s.headlineYears,
            force: Boolean(opts.force), durable: opts.fsync !== false, precompress: opts.precompress !== false,
            thresholds: { ...DEFAULT_BUILD_OPTIONS.thresholds, maxCountDrop: s.maxCountDrop, maxMedianShift: s.maxMedianShift },
            keyed: { winsorLower: s.winsorLower, winsorUpper: s.winsorUpper },
            now: () => io.now(),
            progress: progressLog ?? (io.isTty ? ttyProgress((t) => process.stderr.write(t), 8) : silentProgress),
            skipUnchanged: true,
            allowEmpty: Boolean(opts.allowEmpty),
            allowSyntheticOverReal: Boolean(opts.allowSyntheticOverReal),
            allowRealOverSynthetic: Boolean(opts.allowRealOverSynthetic),
          });
          progressLog?.end(true);
          const label = r.status === 'pinned' ? 'warning (not published: pinned)' : 'warning (forced)';
          for (const w of r.diffWarnings) io.err(`${label}: ${w}`);
          if (r.dataSwitch) io.err(`warning: ${switchWarning(r.dataSwitch, r.previous!)}`);
          const line = outcomeLine(r);
          record = { outcome: r.status, build_id: r.published ? r.id : r.status === 'unchanged' ? r.previous : null, message: line };
          // Only a build that became current changes what the edge should serve.
          if (s.onPublish && r.published) hook = runOnPublish(s.onPublish, { event: 'published', buildId: r.id, previous: r.previous, out: s.out });
          if (!opts.json) {
            io.out(line);
            if (hook?.ok) io.err(`--on-publish command finished in ${hook.duration_s.toFixed(1)} s`);
            if (hook && !hook.ok) throw new CliError(onPublishFailure(hook, r.id));
            if (r.status === 'pinned' && !opts.allowPinned) throw new CliError('', EXIT_PINNED);
            return;
          }
          const sm = r.summary;
          const current = r.published ? r.id : r.previous;
          io.out(JSON.stringify({
            status: r.status, build_id: r.published ? r.id : null, current, previous: r.previous, pinned: current ? isPinned(s.out, current) : false,
            reports_used: sm.reports_used, approved_reports: sm.approved_reports, specialties_published: sm.specialties_published, files: sm.files, files_changed: r.filesChanged, files_reused: r.filesReused, bytes: sm.bytes,
            data_as_of: sm.data_as_of, base_url: sm.base_url, synthetic: sm.synthetic, duration_s: Number(r.seconds.toFixed(3)),
            pruned: r.pruned, warnings: r.diffWarnings, data_switch: r.dataSwitch, message: line, on_publish: hook, disclosure_accuracy: r.disclosureAccuracy,
          }));
          if (hook && !hook.ok) throw new CliError(onPublishFailure(hook, r.id));
          if (r.status === 'pinned' && !opts.allowPinned) throw new CliError('', EXIT_PINNED);
        } catch (err) {
          progressLog?.end(false);
          if (err instanceof CliError && err.exitCode === EXIT_PINNED && !err.message) throw err; // reported above
          if (hook) throw err; // published; only the hook failed (reported above)
          const refused = err instanceof Refusal || (err instanceof BuildError && err.refused);
          record = { outcome: refused ? 'refused' : 'failed', build_id: null, message: '' }; // the message: the error thrown below
          if (opts.json) {
            const current = currentBuildId(s.out);
            io.out(JSON.stringify({
              status: refused ? 'refused' : 'failed', build_id: null, current, previous, pinned: current ? isPinned(s.out, current) : false,
              error: (err as Error).message, problems: err instanceof BuildError ? err.problems.slice(0, 50) : [],
              duration_s: Number(((performance.now() - started) / 1000).toFixed(3)),
            }));
          }
          if (err instanceof BuildError) {
            for (const p of err.problems.slice(0, 50)) io.err(`  ${p}`);
            if (err.problems.length > 50) io.err(`  ... and ${count(err.problems.length - 50)} more`);
            throw new CliError(refused ? err.message : `build failed: ${err.message}`, err.exitCode);
          }
          if (err instanceof StoreError) throw new CliError(`build failed: ${err.message}`);
          throw err;
        }
      };
      let exitCode = 0;
      try {
        attempt();
      } catch (err) {
        exitCode = err instanceof CliError ? err.exitCode : 1;
        const message = (err as Error).message ?? String(err);
        // an error caught nowhere above (a missing or unreadable --db, the lock held by another build): failed
        record = record
          ? { ...record, message: [record.message, message].filter(Boolean).join('; ') }
          : { outcome: 'failed', build_id: null, message };
        throw err;
      } finally {
        // A run that stopped before the data folder existed (a new --out and a --db that is missing or not a
        // reports DB) records nothing: a refused run never creates the folder it would have published into.
        if (existsSync(s.out)) {
          try {
            writeLastBuild(s.out, { ...record!, started_at: startedAt.toISOString(), finished_at: io.now().toISOString(), duration_ms: Math.round(performance.now() - started), exit_code: exitCode });
          } catch (err) {
            io.err(`warning: cannot write ${lastBuildPath(s.out)} (the outcome of this build for monitoring): ${(err as Error).message}`);
          }
        }
      }
    });

  const builds = program.command('builds').description('list, verify, roll back and pin published builds');
  builds
    .command('list')
    .description('list published builds, newest first (* = current), with the release each published and the import batches it holds')
    .addOption(option('out'))
    .option('--json', 'print one JSON object: {out, current, pinned, builds: [{id, current, pinned, release, batches, batches_added, ...build.json}]}')
    .action((opts) => {
      const { out } = readSettings(opts, ['out']);
      const list = listBuilds(out).map((b, i, all) => {
        const batches = b.summary?.batches ?? null;
        const older = all[i + 1]?.summary?.batches;
        // the batches this build has that the build before it did not (all of them for the oldest listed)
        const added = batches === null ? null : older ? batchesNotIn(batches, older) : batches;
        return { ...b, release: releaseOf(out, b.id), batches, added };
      });
      if (opts.json) {
        io.out(JSON.stringify({
          out, current: currentBuildId(out), pinned: pinnedBuilds(out),
          builds: list.map((b) => ({ id: b.id, current: b.current, pinned: b.pinned, release: b.release, ...(b.summary ?? {}), batches: b.batches, batches_added: b.added })),
        }));
        return;
      }
      if (list.length === 0) io.out(`no builds in ${out}`);
      for (const b of list) {
        const s = b.summary;
        const batches = b.batches === null ? '' : b.batches.length === 0 ? ', no import batches' : `, batches ${batchRanges(b.batches)}${b.added && b.added.length ? ` (added ${batchRanges(b.added)})` : ''}`;
        io.out(`${b.current ? '*' : ' '} ${b.id}  ${b.release ? `release ${b.release}, ` : ''}${s ? `${reportsText(s)}, ${count(s.files)} files, data as of ${s.data_as_of}${s.synthetic ? ', synthetic' : ''}${s.forced ? ', forced' : ''}${batches}` : '(summary unreadable)'}${b.pinned ? ', pinned' : ''}`);
      }
    });

  builds
    .command('diff')
    .description('what changed from build A to build B: reports used, national medians and counts that moved, files added, removed and changed')
    .argument('<a>', 'the earlier build id')
    .argument('<b>', 'the later build id')
    .addOption(option('out'))
    .option('--json', 'print one JSON object: {from, to, reports_used, files: {added, removed, changed, unchanged}, figures: [...]}')
    .action((a: string, b: string, opts) => {
      const { out } = readSettings(opts, ['out']);
      const side = (id: string): BuildSide => {
        const dir = join(buildsDir(out), id);
        try {
          return { id, summary: BuildSummary.parse(JSON.parse(readFileSync(join(dir, 'build.json'), 'utf8'))), files: readManifest(dir).files };
        } catch {
          throw new CliError(`no readable build ${id} in ${out} (see \`physpay builds list\`)`, 2);
        }
      };
      const d = diffBuilds(side(a), side(b));
      if (opts.json) io.out(JSON.stringify(d));
      else for (const line of diffLines(d)) io.out(line);
    });

  builds
    .command('verify')
    .description('check a build (default: current) against its manifest, schemas and publication floors')
    .argument('[id]', 'build id')
    .addOption(option('out'))
    .option('--json', 'print one JSON object: {build_id, verified, problems: [first 50]} (exit 1 when not verified)')
    .action((id: string | undefined, opts) => {
      const { out } = readSettings(opts, ['out']);
      const target = id ?? currentBuildId(out);
      if (!target) throw new CliError(`no current build in ${out}`);
      const problems = verifyBuildDir(join(buildsDir(out), target));
      if (opts.json) io.out(JSON.stringify({ build_id: target, verified: problems.length === 0, problem_count: problems.length, problems: problems.slice(0, 50) }));
      if (problems.length) {
        if (!opts.json) for (const p of problems.slice(0, 50)) io.err(`  ${p}`);
        throw new CliError(`build ${target} failed verification (${count(problems.length)} problem(s))`);
      }
      if (!opts.json) io.out(`build ${target} verified: every file matches the manifest, its schema and the publication floors`);
    });

  builds
    .command('rollback')
    .description('point current at an earlier build (default: the one before current), after verifying it')
    .argument('[id]', 'build id to make current')
    .addOption(option('out'))
    .addOption(option('onPublish'))
    .option('--json', 'print one JSON object: {current, previous, release, batches, batches_removed, pinned, on_publish}')
    .action((id: string | undefined, opts) => {
      const { out, onPublish } = readSettings(opts, ['out', 'onPublish']);
      let rolledBack: { target: string; previous: string | null; json: Record<string, unknown> } | null = null;
      const release = acquireLock(out);
      try {
        const list = listBuilds(out);
        const curIndex = list.findIndex((b) => b.current);
        const target = id ?? list[curIndex + 1]?.id;
        if (!target) throw new CliError('no earlier build to roll back to');
        if (!list.some((b) => b.id === target)) throw new CliError(`no build ${target} in ${out} (see \`physpay builds list\`)`);
        const problems = verifyBuildDir(join(buildsDir(out), target));
        if (problems.length) throw new CliError(`build ${target} failed verification; current unchanged (${problems[0]})`);
        const previous = currentBuildId(out);
        switchCurrent(out, target);
        // which import batches the build now served holds, and which of the one it replaces it does not
        const held = list.find((b) => b.id === target)?.summary?.batches ?? null;
        const before = list.find((b) => b.id === previous)?.summary?.batches ?? null;
        const removed = held && before ? batchesNotIn(before, held) : null;
        const releaseLabel = releaseOf(out, target);
        rolledBack = {
          target, previous,
          json: { current: target, previous, release: releaseLabel, batches: held, batches_removed: removed, pinned: isPinned(out, target) },
        };
        if (!opts.json) {
          const holds = held === null ? '' : `; it holds ${held.length ? `import batches ${batchRanges(held)}` : 'no import batch'}${removed && removed.length ? ` (not ${batchRanges(removed)}, which ${previous} held)` : ''}`;
          io.out(`current is now ${target}${releaseLabel ? ` (release ${releaseLabel})` : ''} (was ${previous ?? 'none'})${holds}`);
          if (!isPinned(out, target)) io.err(`note: the next physpay build whose data differs replaces ${target}; physpay builds pin ${target} keeps it current`);
        }
      } finally {
        release();
      }
      let hook: OnPublishResult | null = null;
      if (onPublish && rolledBack) hook = runOnPublish(onPublish, { event: 'rollback', buildId: rolledBack.target, previous: rolledBack.previous, out });
      if (opts.json && rolledBack) io.out(JSON.stringify({ ...rolledBack.json, on_publish: hook }));
      if (hook && !hook.ok && rolledBack) throw new CliError(onPublishFailure(hook, rolledBack.target));
    });

  /** pin/unpin change only dist-data/pins/, under the lock (never in the middle of a build's publish step). */
  const locked = (out: string, fn: () => void): void => {
    let release: () => void;
    try {
      release = acquireLock(out);
    } catch (err) {
      if (err instanceof StoreError) throw new CliError(`${err.message}; try again when it has finished`);
      throw err;
    }
    try {
      fn();
    } finally {
      release();
    }
  };

  builds
    .command('pin')
    .description('keep a build: never pruned by --keep, and while it is current `physpay build` does not replace it')
    .argument('[id]', 'build id (default: the current build)')
    .addOption(option('out'))
    .option('--json', 'print one JSON object: {pinned, current, pins}')
    .action((id: string | undefined, opts) => {
      const { out } = readSettings(opts, ['out']);
      locked(out, () => {
        const target = id ?? currentBuildId(out);
        if (!target) throw new CliError(`no current build in ${out}; name the build to pin (see \`physpay builds list\`)`, 2);
        if (!listBuilds(out).some((b) => b.id === target)) throw new CliError(`no build ${target} in ${out} (see \`physpay builds list\`)`, 2);
        pinBuild(out, target);
        if (opts.json) io.out(JSON.stringify({ pinned: target, current: currentBuildId(out), pins: pinnedBuilds(out) }));
        else io.out(`pinned ${target}; physpay build will not replace it while it is current (physpay builds unpin ${target} to undo)`);
      });
    });

  builds
    .command('unpin')
    .description('remove a pin: the build can be replaced and pruned again')
    .argument('[id]', 'build id (default: the current build)')
    .addOption(option('out'))
    .option('--json', 'print one JSON object: {unpinned, current, pins}')
    .action((id: string | undefined, opts) => {
      const { out } = readSettings(opts, ['out']);
      locked(out, () => {
        const target = id ?? currentBuildId(out);
        const pins = pinnedBuilds(out);
        if (!target) throw new CliError(`no current build in ${out}; name the build to unpin (pinned: ${pins.join(', ') || 'none'})`, 2);
        if (!pins.includes(target) || !unpinBuild(out, target)) throw new CliError(`build ${target} is not pinned (pinned: ${pins.join(', ') || 'none'})`, 2);
        if (opts.json) io.out(JSON.stringify({ unpinned: target, current: currentBuildId(out), pins: pinnedBuilds(out) }));
        else io.out(`unpinned ${target}`);
      });
    });
}
