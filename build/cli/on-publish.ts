/**
 * The `--on-publish <command>` hook of `physpay build` and `physpay builds rollback`: a shell command run
 * once the current pointer names a new build, e.g. to ban the previous build's files from an edge cache
 * (deploy/varnish/on-publish.sh). It runs after publishing, so it can never stop or undo a publish; when
 * it fails, the command says so and exits 1 (the build stays published).
 *
 * The command gets the build in its environment:
 *   PHYSPAY_BUILD_ID           the build now current
 *   PHYSPAY_PREVIOUS_BUILD_ID  the build it replaced ('' for the first)
 *   PHYSPAY_OUT                the dist-data folder (absolute)
 *   PHYSPAY_EVENT              published | rollback
 * Its output goes to stderr (stdout stays free for --json).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export const ON_PUBLISH_TIMEOUT_MS = 10 * 60_000;

export interface OnPublishEvent {
  event: 'published' | 'rollback';
  buildId: string;
  previous: string | null;
  out: string;
}

export interface OnPublishResult {
  command: string;
  ok: boolean;
  /** the exit code, or null when it was killed (signal, timeout) or could not start */
  exit_code: number | null;
  /** what went wrong, in one sentence (null when ok) */
  error: string | null;
  duration_s: number;
}

export function runOnPublish(command: string, e: OnPublishEvent, timeoutMs = ON_PUBLISH_TIMEOUT_MS): OnPublishResult {
  const started = performance.now();
  const r = spawnSync('/bin/sh', ['-c', command], {
    stdio: ['ignore', 2, 2],
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    env: {
      ...process.env,
      PHYSPAY_BUILD_ID: e.buildId,
      PHYSPAY_PREVIOUS_BUILD_ID: e.previous ?? '',
      PHYSPAY_OUT: resolve(e.out),
      PHYSPAY_EVENT: e.event,
    },
  });
  const duration_s = Number(((performance.now() - started) / 1000).toFixed(3));
  let error: string | null = null;
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') error = `it did not finish within ${timeoutMs / 1000} s and was killed`;
  else if (r.error) error = `it could not be started (${r.error.message})`;
  else if (r.signal) error = `it was killed by ${r.signal}`;
  else if (r.status !== 0) error = `it exited with code ${r.status}`;
  return { command, ok: error === null, exit_code: r.status, error, duration_s };
}

/** The sentence printed when the hook failed: the build is published; the edge may lag. */
export function onPublishFailure(r: OnPublishResult, buildId: string): string {
  return `build ${buildId} is published and current, but the --on-publish command failed: ${r.error}; caches in front may serve the previous build until their TTL (one hour) runs out`;
}
