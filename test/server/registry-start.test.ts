/**
 * The build registry names the build it is loading from the moment it starts (not one event-loop turn later):
 * `physpay serve` hands its app the requests that waited while its modules loaded right after starting the
 * registry, and /readyz must name the build for them ("loading build ID"), not say "no valid build loaded
 * yet". The fresh-clone CI run of 16c4308 failed on this race in test/server/serve-start.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { BuildRegistry } from '../../server/builds/registry.ts';

const dir = mkdtempSync(join(tmpdir(), 'physpay-registry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('start() sets `loading` to the pointer\'s build before it returns', async () => {
  mkdirSync(join(dir, 'builds', 'b1'), { recursive: true }); // not a valid build: its load fails afterwards
  symlinkSync('builds/b1', join(dir, 'current'));
  const errors: string[] = [];
  const registry = new BuildRegistry(dir, { onError: (m) => errors.push(m) });
  const started = registry.start(60_000);
  expect(registry.loading).toBe('b1');
  await started;
  registry.stop();
  expect(registry.loading).toBeNull();
  expect(registry.current).toBeNull();
  expect(errors).toEqual([expect.stringContaining('build b1 not loaded')]);
});

it('start() with no pointer yet: nothing loading', async () => {
  const registry = new BuildRegistry(join(dir, 'none'));
  const started = registry.start(60_000);
  expect(registry.loading).toBeNull();
  await started;
  registry.stop();
});
