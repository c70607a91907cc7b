/**
 * Temporary folders for tests: `physpay-<prefix>-XXXXXX` in the OS temp dir, removed when the tests are done.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/** A new folder `physpay-<prefix>-XXXXXX` in the OS temp dir (the caller removes it: removeDir). */
export function makeTempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `physpay-${prefix}-`));
}

/** Remove a folder and everything in it (nothing when it is undefined or already gone). */
export function removeDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

export interface TempDir {
  /** the folder (read it in hooks and tests, not while the file is collected) */
  readonly path: string;
}

/**
 * A temporary folder for this file's tests: made before them (beforeAll) and removed after them
 * (afterAll); with `each`, a fresh one for every test (beforeEach / afterEach). Call at the top of a test
 * file or describe block; hooks registered after this one see the folder.
 */
export function useTempDir(prefix: string, opts: { each?: boolean } = {}): TempDir {
  let path: string | undefined;
  const make = () => {
    path = makeTempDir(prefix);
  };
  const remove = () => {
    removeDir(path);
    path = undefined;
  };
  if (opts.each) {
    beforeEach(make);
    afterEach(remove);
  } else {
    beforeAll(make);
    afterAll(remove);
  }
  return {
    get path(): string {
      if (path === undefined) throw new Error(`temporary folder ${prefix} read outside the tests that own it`);
      return path;
    },
  };
}
