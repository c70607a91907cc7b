/**
 * The fixed input of the golden build: a small synthetic reports DB (seeded, so anyone can regenerate it
 * by hand with `physpay demo --db golden.db --reports 1500 --seed 7 --as-of 2026-11-15`) and fixed build
 * options (clock, build date, base URL).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDemoDb } from '../../build/demo/create.ts';
import { DEFAULT_BUILD_OPTIONS, runBuild, type BuildOptions, type BuildResult } from '../../build/run-build.ts';

export const GOLDEN_DEMO = { reports: 1500, seed: 7, asOf: '2026-11-15' };
export const FIXED_NOW = new Date('2026-11-16T03:00:00.000Z');

export function makeGoldenDb(dir = mkdtempSync(join(tmpdir(), 'physpay-golden-'))): string {
  const db = join(dir, 'golden.db');
  createDemoDb(db, { ...GOLDEN_DEMO, force: true, now: () => FIXED_NOW });
  return db;
}

export function goldenBuild(db: string, out: string, overrides: Partial<BuildOptions> = {}): BuildResult {
  return runBuild({
    ...DEFAULT_BUILD_OPTIONS,
    db,
    out,
    baseUrl: 'https://physpay.example',
    buildDate: '2026-11-16',
    durable: false,
    now: () => FIXED_NOW,
    ...overrides,
  });
}
