/**
 * Test helper: run `physpay serve` as a real process and wait for its `listening on URL` line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const BIN = join(process.cwd(), 'bin', 'physpay.js');

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** everything the process wrote to stderr so far (JSON log lines) */
  stderr: () => string;
  stop(): Promise<void>;
}

export function spawnServe(args: string[], timeoutMs = 30_000): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
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
      reject(new Error(`physpay serve did not print "listening on" within ${timeoutMs} ms; stderr: ${err.slice(-2000)}`));
    }, timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`physpay serve exited (${signal ?? code}) before listening; stdout: ${out.slice(-500)} stderr: ${err.slice(-2000)}`));
    });
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1]!, child, stderr: () => err, stop });
      }
    });
  });
}
