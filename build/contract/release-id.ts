/**
 * A release of the open data: every published build is one, named by its build date (`2026-11-24`, and
 * `2026-11-24.2`, `.3`, ... for further releases the same day). Every feed carries the release in which its
 * content last changed (`release`); releases.json (releases.ts) lists them.
 */
import { z } from 'zod';

export const RELEASE_ID = /^\d{4}-\d{2}-\d{2}(?:\.[1-9]\d*)?$/;
export const ReleaseId = z.string().regex(RELEASE_ID).describe('a release: its build date, with .2, .3, ... for further releases that day');

/** A release's date and its number that day (1 for the date alone), for ordering and numbering. */
export function parseRelease(id: string): { date: string; seq: number } {
  const [date, seq] = id.split('.');
  return { date: date!, seq: seq === undefined ? 1 : Number(seq) };
}

/** Where every release's files are served: data/api/v1/releases/<release>/... (the files of data/api/v1/ as that release published them). */
export const RELEASES_DIR = 'data/api/v1/releases';

/** The per-release path of a public file under data/api/v1/ (`data/api/v1/specialties.json` -> `data/api/v1/releases/<release>/specialties.json`). */
export function releaseFilePath(release: string, path: string): string {
  if (!path.startsWith('data/api/v1/')) throw new Error(`not a file of the open data API: ${path}`);
  return `${RELEASES_DIR}/${release}/${path.slice('data/api/v1/'.length)}`;
}

/** The date of a release (its build date): a document's `modified`. */
export function releaseDate(release: string): string {
  return parseRelease(release).date;
}
