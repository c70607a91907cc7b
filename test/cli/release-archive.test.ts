/**
 * `physpay export --release-archive <dir>`: a build's release files land in <dir>/<release>/ exactly as the
 * build holds them; archiving the same release again changes nothing; a folder of that release holding a
 * different archive is refused (a release folder is never overwritten); --out and --release-archive
 * together are a usage error.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { runCli, runCliText } from '../helpers/cli.ts';
import type { ReleasesFeed } from '../../build/contract/releases.ts';

const g = useGoldenDir('release-archive');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('physpay export --release-archive', () => {
  it('copies the release\'s archive, checksum, releases.json, data package and CITATION.cff into <dir>/<release>/', async () => {
    const dir = join(g.path, 'releases');
    const r = await runCli(['export', '--data', g.dist, '--release-archive', dir, '--json']);
    expect(r.code, r.err.join('\n')).toBe(0);
    const out = JSON.parse(r.out[0]!) as { status: string; release: string; folder: string; archive_sha256: string; build_id: string };
    const list = JSON.parse(readFileSync(join(g.buildDir, 'public/data/api/v1/releases.json'), 'utf8')) as ReleasesFeed;
    expect(out).toMatchObject({ status: 'archived', release: list.latest, folder: join(dir, list.latest), build_id: g.buildId });
    expect(readdirSync(dir)).toEqual([list.latest]); // no temporary folder left
    expect(readdirSync(out.folder).sort()).toEqual(['CITATION.cff', 'datapackage.json', 'physpay-open-data.tar.gz', 'physpay-open-data.tar.gz.sha256', 'releases.json']);
    const archive = readFileSync(join(out.folder, 'physpay-open-data.tar.gz'));
    expect(archive.equals(readFileSync(join(g.buildDir, 'public/data/api/v1/physpay-open-data.tar.gz')))).toBe(true);
    expect(sha(archive)).toBe(list.releases[0]!.archive_sha256);
    expect(readFileSync(join(out.folder, 'physpay-open-data.tar.gz.sha256'), 'utf8')).toBe(`${sha(archive)}  physpay-open-data.tar.gz\n`);
    expect(readFileSync(join(out.folder, 'CITATION.cff'), 'utf8')).toContain(`version: "${list.latest}"`);

    // again: nothing changes (same files, same times)
    const before = statSync(join(out.folder, 'physpay-open-data.tar.gz')).mtimeMs;
    const again = await runCliText(['export', '--data', g.dist, '--release-archive', dir]);
    expect(again.code).toBe(0);
    expect(again.out).toContain(`already archived (unchanged): release ${list.latest}`);
    expect(statSync(join(out.folder, 'physpay-open-data.tar.gz')).mtimeMs).toBe(before);

    // a folder of that release with another archive is never overwritten
    writeFileSync(join(out.folder, 'physpay-open-data.tar.gz'), 'not this release');
    const clash = await runCliText(['export', '--data', g.dist, '--release-archive', dir]);
    expect(clash.code).toBe(1);
    expect(clash.err).toMatch(/holds a different archive .* never overwritten/);
    expect(readFileSync(join(out.folder, 'physpay-open-data.tar.gz'), 'utf8')).toBe('not this release');
  });

  it('--out and --release-archive together are a usage error', async () => {
    const r = await runCliText(['export', '--data', g.dist, '--release-archive', join(g.path, 'x'), '--out', join(g.path, 'y')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('either --out');
  });
});
