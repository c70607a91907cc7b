/**
 * The README's operations recipes work as written: the systemd unit files pass `systemd-analyze verify`
 * (when systemd is installed), and every physpay command line of the cron entry, the units and the upgrade
 * steps is a valid invocation that succeeds against a temporary copy of /srv/physpay.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../build/cli/main.ts';
import type { CliIo } from '../../build/cli/io.ts';
import { makeTempDir, removeDir, useTempDir } from '../helpers/temp-dir.ts';

const ROOT = process.cwd();
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BIN = '/opt/physpay/bin/physpay.js';

/** Fenced blocks of the README whose first line names the file they are (`# /etc/...`). */
function namedBlocks(): { path: string; text: string }[] {
  const blocks: { path: string; text: string }[] = [];
  for (const m of readme.matchAll(/^```[a-z]*\n# (\/etc\/\S+)\n([\s\S]*?)^```$/gm)) blocks.push({ path: m[1]!, text: `# ${m[1]}\n${m[2]}` });
  return blocks;
}

/** The fenced `sh` block of the upgrade steps. */
function upgradeBlock(): string {
  const start = readme.indexOf('### Upgrades and migrations');
  expect(start, 'README section "### Upgrades and migrations"').toBeGreaterThan(0);
  return /```sh\n([\s\S]*?)```/.exec(readme.slice(start))![1]!;
}

/** physpay argument lists of the cron entry, the units' ExecStart= lines and the upgrade steps. */
function commandLines(): { where: string; args: string[] }[] {
  const lines: { where: string; args: string[] }[] = [];
  const words = (s: string) => {
    expect(s, 'no shell quoting or expansion in a documented command line').not.toMatch(/["'$`\\]/);
    return s.trim().split(/\s+/);
  };
  for (const b of namedBlocks()) {
    for (const line of b.text.split('\n')) {
      if (b.path.startsWith('/etc/cron.d/') && /^[\d*]/.test(line)) {
        const [, , , , , user, bin, ...rest] = words(line.replace(/\s*>>.*$/, ''));
        expect(user).toBe('physpay');
        expect(bin).toBe(BIN);
        lines.push({ where: `${b.path}: ${line}`, args: rest });
      }
      const exec = /^ExecStart=(\S+)\s+(.*)$/.exec(line);
      if (exec) {
        expect(exec[1]).toBe(BIN);
        lines.push({ where: `${b.path}: ${line}`, args: words(exec[2]!) });
      }
    }
  }
  for (const line of upgradeBlock().split('\n')) {
    const m = /^(?:sudo -u physpay )?physpay (.*?)(\s+#.*)?$/.exec(line);
    if (m) lines.push({ where: `upgrade steps: ${line}`, args: words(m[1]!) });
  }
  return lines;
}

describe('README operations: cron and systemd', () => {
  it('shows a cron entry and a systemd service and timer in full', () => {
    const paths = namedBlocks().map((b) => b.path);
    expect(paths).toEqual(expect.arrayContaining(['/etc/cron.d/physpay', '/etc/systemd/system/physpay-build.service', '/etc/systemd/system/physpay-build.timer']));
    const service = namedBlocks().find((b) => b.path.endsWith('physpay-build.service'))!.text;
    expect(service).toMatch(/^\[Unit\]$/m);
    expect(service).toMatch(/^\[Service\]$/m);
    expect(service).toMatch(/^Type=oneshot$/m);
    const timer = namedBlocks().find((b) => b.path.endsWith('physpay-build.timer'))!.text;
    expect(timer).toMatch(/^\[Timer\]$/m);
    expect(timer).toMatch(/^OnCalendar=/m);
    expect(timer).toMatch(/^\[Install\]$/m);
  });

  it('states the exit codes a failure gives and where the output goes', () => {
    const start = readme.indexOf('### Nightly build');
    expect(start).toBeGreaterThan(0);
    const section = readme.slice(start, readme.indexOf('\n### ', start + 1));
    expect(section).toMatch(/0\b.*success/);
    expect(section).toMatch(/1\b.*runtime failure/);
    expect(section).toMatch(/2\b.*usage/);
    expect(section).toContain('journalctl -u physpay-build');
    expect(section).toContain('/var/log/physpay/build.log');
  });

  const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
  it.skipIf(analyze.status !== 0)('the unit files pass systemd-analyze verify without a warning', () => {
    const dir = makeTempDir('units');
    try {
      const units: string[] = [];
      for (const b of namedBlocks().filter((x) => x.path.startsWith('/etc/systemd/system/'))) {
        const file = join(dir, b.path.split('/').pop()!);
        // The real entry point stands in for the installed checkout (verify checks that it is executable).
        writeFileSync(file, b.text.replaceAll(BIN, join(ROOT, 'bin/physpay.js')));
        units.push(file);
      }
      const r = spawnSync('systemd-analyze', ['verify', ...units], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr.trim()).toBe('');
    } finally {
      removeDir(dir);
    }
  });
});

describe('README operations: every documented physpay command line works', () => {
  const tmp = useTempDir('srv');
  let srv: string;
  const io = (out: string[], err: string[]): CliIo => ({ out: (l) => out.push(l), err: (l) => err.push(l), now: () => new Date(), isTty: false });
  beforeAll(async () => {
    srv = tmp.path;
    const err: string[] = [];
    expect(await main(['node', 'physpay', 'demo', '--db', join(srv, 'reports.db'), '--reports', '300'], io([], err)), err.join('\n')).toBe(0);
  });

  it('finds the command lines (cron, ExecStart, upgrade steps)', () => {
    const lines = commandLines();
    expect(lines.filter((l) => l.where.startsWith('/etc/cron.d/'))).toHaveLength(1);
    expect(lines.filter((l) => l.where.includes('.service'))).toHaveLength(1);
    expect(lines.filter((l) => l.where.startsWith('upgrade steps')).length).toBeGreaterThanOrEqual(3);
  });

  it('each runs to exit 0 against a temporary /srv/physpay', { timeout: 240_000 }, async () => {
    const seen = new Set<string>();
    for (const { where, args } of commandLines()) {
      if (seen.has(args.join(' '))) continue; // the cron entry and the unit run the same build
      seen.add(args.join(' '));
      // --no-fsync only makes the test build faster; it does not change what is checked.
      const argv = args.map((a) => a.replaceAll('/srv/physpay', srv));
      if (argv[0] === 'build') argv.push('--no-fsync');
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(['node', 'physpay', ...argv], io(out, err));
      expect(code, `${where}\n${err.join('\n')}`).toBe(0);
    }
  });
});
