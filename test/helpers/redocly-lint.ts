/**
 * Lint OpenAPI documents with Redocly CLI (the devDependency @redocly/cli, its built-in `recommended`
 * ruleset). Redocly CLI 2.x is one bundled file and installs no @redocly/openapi-core, so there is no
 * programmatic API to import: each document is written to a temporary directory with a redocly.yaml that
 * extends `recommended`, and the CLI lints them there (one process per document, in parallel; about a
 * second each). Telemetry, update checks and notifications are off: nothing is fetched.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { makeTempDir, removeDir } from './temp-dir.ts';

const CLI = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

export interface LintResult {
  totals: { errors: number; warnings: number; ignored: number };
  version: string;
  problems: LintProblem[];
}

const QUIET_ENV = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', NO_COLOR: '1' };

function lintFile(dir: string, file: string): Promise<LintResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, 'lint', '--config', 'redocly.yaml', '--format', 'json', '--max-problems', '1000', file],
      { cwd: dir, env: { ...process.env, ...QUIET_ENV }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      // Exit code 1 means "problems found": the JSON on stdout says which.
      (err, stdout, stderr) => {
        try {
          resolve(JSON.parse(stdout) as LintResult);
        } catch {
          reject(new Error(`redocly lint ${file} gave no JSON report (${err?.message ?? 'exit 0'}):\n${stderr}\n${stdout}`.slice(0, 4000)));
        }
      },
    );
  });
}

/** Lint each named document; the result of each, by name. */
export async function lintOpenApi(docs: Record<string, unknown>): Promise<Record<string, LintResult>> {
  const dir = makeTempDir('redocly');
  try {
    writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\ntelemetry: off\n');
    const names = Object.keys(docs);
    for (const name of names) writeFileSync(join(dir, `${name}.json`), JSON.stringify(docs[name], null, 2));
    const results = await Promise.all(names.map((name) => lintFile(dir, `${name}.json`)));
    return Object.fromEntries(names.map((name, i) => [name, results[i]!]));
  } finally {
    removeDir(dir);
  }
}

/** One line per problem: `severity rule at pointer: message`. */
export function describeProblems(result: LintResult): string {
  return result.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`).join('\n');
}
