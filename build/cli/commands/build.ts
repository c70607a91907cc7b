/** `physpay build` and `physpay builds list|rollback|verify`. */
import type { Command } from 'commander';
import { join } from 'node:path';
import { BuildError, DEFAULT_BUILD_OPTIONS, runBuild } from '../../run-build.ts';
import { ttyProgress, silentProgress } from '../../emit/progress.ts';
import { acquireLock, buildsDir, currentBuildId, listBuilds, switchCurrent, StoreError } from '../../emit/store.ts';
import { verifyBuildDir } from '../../emit/verify.ts';
import { option, readSettings } from '../settings.ts';
import { CliError, type CliIo } from '../io.ts';

const MB = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

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
    .addOption(option('maxCountDrop'))
    .addOption(option('maxMedianShift'))
    .addOption(option('winsorLower'))
    .addOption(option('winsorUpper'))
    .option('--force', 'publish even when the sanity diff against the current build fails')
    .option('--no-fsync', 'do not flush each file to disk (faster; for throwaway builds)')
    .action((opts) => {
      const s = readSettings(opts, ['db', 'out', 'baseUrl', 'publisher', 'buildDate', 'keep', 'maxCountDrop', 'maxMedianShift', 'winsorLower', 'winsorUpper']);
      if (s.winsorLower >= s.winsorUpper) throw new CliError('--winsor-lower must be below --winsor-upper', 2);
      try {
        const r = runBuild({
          ...DEFAULT_BUILD_OPTIONS,
          db: s.db, out: s.out, baseUrl: s.baseUrl, publisher: s.publisher, buildDate: s.buildDate, keep: s.keep,
          force: Boolean(opts.force), durable: opts.fsync !== false,
          thresholds: { ...DEFAULT_BUILD_OPTIONS.thresholds, maxCountDrop: s.maxCountDrop, maxMedianShift: s.maxMedianShift },
          keyed: { winsorLower: s.winsorLower, winsorUpper: s.winsorUpper },
          now: () => io.now(),
          progress: io.isTty ? ttyProgress((t) => process.stderr.write(t), 8) : silentProgress,
        });
        for (const w of r.diffWarnings) io.err(`warning (forced): ${w}`);
        const sm = r.summary;
        io.out(`built ${r.id}: ${sm.reports_used.toLocaleString('en-US')} reports used, ${sm.files.toLocaleString('en-US')} files written, ${MB(sm.bytes)}, ${r.seconds.toFixed(1)} s${sm.synthetic ? ' (SYNTHETIC demo data)' : ''}; published as current`);
      } catch (err) {
        if (err instanceof BuildError) {
          for (const p of err.problems.slice(0, 50)) io.err(`  ${p}`);
          if (err.problems.length > 50) io.err(`  ... and ${err.problems.length - 50} more`);
          throw new CliError(`build failed: ${err.message}`);
        }
        if (err instanceof StoreError) throw new CliError(`build failed: ${err.message}`);
        throw err;
      }
    });

  const builds = program.command('builds').description('list, verify and roll back published builds');
  builds
    .command('list')
    .description('list published builds, newest first (* = current)')
    .addOption(option('out'))
    .option('--json', 'one JSON object per build')
    .action((opts) => {
      const { out } = readSettings(opts, ['out']);
      const list = listBuilds(out);
      if (opts.json) {
        for (const b of list) io.out(JSON.stringify({ id: b.id, current: b.current, ...(b.summary ?? {}) }));
        return;
      }
      if (list.length === 0) io.out(`no builds in ${out}`);
      for (const b of list) {
        const s = b.summary;
        io.out(`${b.current ? '*' : ' '} ${b.id}  ${s ? `${s.reports_used.toLocaleString('en-US')} reports, ${s.files} files, data as of ${s.data_as_of}${s.synthetic ? ', synthetic' : ''}${s.forced ? ', forced' : ''}` : '(summary unreadable)'}`);
      }
    });

  builds
    .command('verify')
    .description('check a build (default: current) against its manifest, schemas and publication floors')
    .argument('[id]', 'build id')
    .addOption(option('out'))
    .action((id: string | undefined, opts) => {
      const { out } = readSettings(opts, ['out']);
      const target = id ?? currentBuildId(out);
      if (!target) throw new CliError(`no current build in ${out}`);
      const problems = verifyBuildDir(join(buildsDir(out), target));
      if (problems.length) {
        for (const p of problems.slice(0, 50)) io.err(`  ${p}`);
        throw new CliError(`build ${target} failed verification (${problems.length} problem(s))`);
      }
      io.out(`build ${target} verified: every file matches the manifest, its schema and the publication floors`);
    });

  builds
    .command('rollback')
    .description('point current at an earlier build (default: the one before current), after verifying it')
    .argument('[id]', 'build id to make current')
    .addOption(option('out'))
    .action((id: string | undefined, opts) => {
      const { out } = readSettings(opts, ['out']);
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
        io.out(`current is now ${target} (was ${previous ?? 'none'})`);
      } finally {
        release();
      }
    });
}
