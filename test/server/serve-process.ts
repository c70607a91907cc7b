/**
 * Test helper: run `physpay serve` as a real process and wait for its `listening on URL` line (ready: the
 * build is loaded), or with `until: 'listening'` only for its `listening` log line (the port is bound; the
 * build may still be loading).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const BIN = join(process.cwd(), 'bin', 'physpay.js');

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** everything the process wrote to stderr so far (JSON log lines) */
  stderr: () => string;
  /** resolves at the `listening on URL` line on stdout (at once when that is what spawnServe waited for) */
  ready: Promise<void>;
  stop(): Promise<void>;
}

export function spawnServe(args: string[], timeoutMs = 30_000, opts: { until?: 'ready' | 'listening' } = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  let err = '';
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`physpay serve did not print ${opts.until === 'listening' ? 'its "listening" log line' : '"listening on"'} within ${timeoutMs} ms; stderr: ${err.slice(-2000)}`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`physpay serve exited (${signal ?? code}) before listening; stdout: ${out.slice(-500)} stderr: ${err.slice(-2000)}`));
    });
    const found = (url: string) => {
      clearTimeout(timer);
      resolve({ url, child, stderr: () => err, ready, stop });
    };
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = opts.until === 'listening' ? /^\{.*"url":"(http:\/\/[^"]+)".*"msg":"listening"\}$/m.exec(err) : null;
      if (m) found(m[1]!);
    });
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (m) {
        onReady();
        if (opts.until !== 'listening') found(m[1]!);
      }
    });
  });
}
