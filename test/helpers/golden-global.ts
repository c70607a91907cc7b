/**
 * Vitest global set-up (both configs): a folder for this run's shared golden build. The first test file that
 * asks for a golden build (goldenBuildIn in golden-build.ts) builds it there once; every other file copies
 * it (about a second) instead of building again (several seconds each on a busy machine). Removed at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** this run's folder for the shared golden build (test/helpers/golden-build.ts reads it with inject) */
    goldenCache: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'physpay-golden-run-'));
  project.provide('goldenCache', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
