/**
 * `<out>/last-build.json` (contract: build/contract/last-build.ts): written by every `physpay build`
 * attempt, read by the server's /metrics.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAST_BUILD_FILE, LastBuild } from '../contract/last-build.ts';

export const lastBuildPath = (out: string) => join(out, LAST_BUILD_FILE);

/** Write it atomically (a temporary file in the same folder, renamed over the old one). */
export function writeLastBuild(out: string, doc: LastBuild): void {
  const body = `${JSON.stringify(LastBuild.parse(doc), null, 2)}\n`;
  mkdirSync(out, { recursive: true });
  const tmp = join(out, `.${LAST_BUILD_FILE}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, body);
    renameSync(tmp, lastBuildPath(out));
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * A reader for a process that asks often (each /metrics scrape): a stat per call, the file read and
 * checked again only when its modification time or size changed. null when there is no file, or it is not
 * a valid last-build.json.
 */
export function lastBuildReader(out: string): () => LastBuild | null {
  const path = lastBuildPath(out);
  let seen = '';
  let doc: LastBuild | null = null;
  return () => {
    let key: string;
    try {
      const st = statSync(path);
      key = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      seen = '';
      doc = null;
      return null;
    }
    if (key === seen) return doc;
    seen = key;
    try {
      doc = LastBuild.parse(JSON.parse(readFileSync(path, 'utf8')));
    } catch {
      doc = null;
    }
    return doc;
  };
}
