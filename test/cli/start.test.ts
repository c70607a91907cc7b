/**
 * `npm start` (scripts/start.mjs): a taken port is said at once, before the demo and the build run (the old
 * chain found it only after both, minutes on a slow machine); the port comes from PORT or --port.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

const START = join(import.meta.dirname, '../../scripts/start.mjs');

async function occupy(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.address() as { port: number }).port };
}

describe('npm start', () => {
  it('refuses a taken port before building anything, naming the two ways to pick another (PORT, --port)', async () => {
    const { server, port } = await occupy();
    try {
      for (const [env, args] of [[{ PORT: String(port) }, []], [{}, ['--port', String(port)]], [{}, [`--port=${port}`]]] as [Record<string, string>, string[]][]) {
        const started = Date.now();
        const r = spawnSync(process.execPath, [START, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 30_000 });
        expect(r.status).toBe(2);
        expect(Date.now() - started).toBeLessThan(5_000); // no demo, no build
        expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
        expect(r.stderr).toMatch(/PORT=\d+ npm start.*npm start -- --port \d+.*nothing was built/);
      }
    } finally {
      server.close();
    }
  });

  it('refuses a port that is not a number', () => {
    const r = spawnSync(process.execPath, [START, '--port', 'eighty'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/port must be a number from 1 to 65535 \(got "eighty"\)/);
  });
});

describe('npm start on another port', () => {
  it('builds with the base URL of the port it serves on, so links and citations name it', async () => {
    const { startSteps } = await import('../../scripts/start-steps.mjs');
    const steps = startSteps(8090);
    expect(steps.map((s) => s[0])).toEqual(['demo', 'build', 'serve']);
    const build = steps[1]!;
    expect(build[build.indexOf('--base-url') + 1]).toBe('http://127.0.0.1:8090');
    const serve = steps[2]!;
    expect(serve[serve.indexOf('--port') + 1]).toBe('8090');
  });
});
