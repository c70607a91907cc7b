/**
 * `physpay export --release-archive <dir>`: copy a build's release (its archive, the archive's SHA-256,
 * releases.json, datapackage.json and CITATION.cff) into `<dir>/<release>/`, for permanent citation once
 * the build itself is pruned. A release folder is written once (into a hidden folder, renamed into place)
 * and never changed: archiving the same release again checks it and changes nothing; a folder of that name
 * holding a different archive is an error. Sync `<dir>` to object storage afterwards (README: Releases).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReleasesFeed, RELEASES_PATH } from '../../contract/releases.ts';
import { ARCHIVE_PATH, ARCHIVE_SHA256_PATH, DATA_PACKAGE_PATH } from '../../compute/data-package.ts';
import { CITATION_CFF_PATH } from '../../pages/changelog.ts';
import { CliError } from '../io.ts';

/** the files of a release folder, by their name there -> their path in the build's public tree */
const FILES: [string, string][] = [
  ['physpay-open-data.tar.gz', ARCHIVE_PATH],
  ['physpay-open-data.tar.gz.sha256', ARCHIVE_SHA256_PATH],
  ['releases.json', RELEASES_PATH],
  ['datapackage.json', DATA_PACKAGE_PATH],
  ['CITATION.cff', CITATION_CFF_PATH],
];

export interface ReleaseArchiveResult {
  status: 'archived' | 'already-archived';
  release: string;
  folder: string;
  archive_sha256: string;
  files: string[];
}

export function archiveRelease(buildDir: string, dir: string): ReleaseArchiveResult {
  const listPath = join(buildDir, 'public', RELEASES_PATH);
  if (!existsSync(listPath)) throw new CliError(`the build in ${buildDir} has no releases.json (it was made by an older physpay); build again to archive a release`);
  const list = ReleasesFeed.parse(JSON.parse(readFileSync(listPath, 'utf8')));
  const release = list.latest;
  const archive = readFileSync(join(buildDir, 'public', ARCHIVE_PATH));
  const sha = createHash('sha256').update(archive).digest('hex');
  if (sha !== list.releases[0]!.archive_sha256) throw new CliError(`the build's archive does not match the SHA-256 its releases.json lists (${list.releases[0]!.archive_sha256}); run physpay builds verify`);
  const present = FILES.filter(([, p]) => existsSync(join(buildDir, 'public', p)));
  const folder = join(dir, release);
  const names = present.map(([n]) => n);
  if (existsSync(folder)) {
    const kept = join(folder, 'physpay-open-data.tar.gz');
    const keptSha = existsSync(kept) ? createHash('sha256').update(readFileSync(kept)).digest('hex') : null;
    if (keptSha !== sha) throw new CliError(`${folder} exists and holds a different archive (SHA-256 ${keptSha ?? 'none'}, this release's is ${sha}); a release folder is never overwritten`);
    return { status: 'already-archived', release, folder, archive_sha256: sha, files: names };
  }
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${release}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(tmp, { mode: 0o755 });
    for (const [name, p] of present) writeFileSync(join(tmp, name), readFileSync(join(buildDir, 'public', p)));
    renameSync(tmp, folder);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw new CliError(`cannot write the release archive to ${folder}: ${(err as Error).message}; nothing was changed there`);
  }
  return { status: 'archived', release, folder, archive_sha256: sha, files: names };
}
