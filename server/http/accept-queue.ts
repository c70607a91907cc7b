/**
 * How many connections wait for this server to accept them: the shutdown drain (server/main.ts) keeps
 * accepting until none do, so a connection a client opened and wrote its request on before SIGTERM is
 * answered, not reset when the listening socket closes.
 *
 * Node takes one connection from the kernel per turn of its event loop (measured: 119 queued connections
 * took 2.4 s to accept on a busy 2-core machine), so a drain that waits a fixed time resets what is left.
 * Linux shows the queue in /proc/net/tcp and /proc/net/tcp6: for a listening socket (state 0A) the
 * rx_queue column is its accept queue; handshakes still in progress are rows in state SYN_RECV (03) on the
 * same local port. Elsewhere there is no such file and the drain falls back to waiting for a quiet spell.
 */
import { readFileSync } from 'node:fs';

const LISTEN = '0A';
const SYN_RECV = '03';

/**
 * Pure: the connections waiting on local port `port` in the text of /proc/net/tcp (or tcp6): the accept
 * queues of its listening sockets plus its handshakes in progress.
 */
export function queuedOnPort(procNetTcp: string, port: number): number {
  const suffix = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let queued = 0;
  for (const line of procNetTcp.split('\n')) {
    // sl local_address rem_address st tx_queue:rx_queue ...
    const f = line.trim().split(/\s+/);
    if (f.length < 5 || !f[1]!.endsWith(suffix)) continue;
    if (f[3] === LISTEN) queued += parseInt(f[4]!.split(':')[1] ?? '0', 16) || 0;
    else if (f[3] === SYN_RECV) queued += 1;
  }
  return queued;
}

/** The connections waiting on local port `port` (IPv4 and IPv6), or null where /proc/net/tcp cannot be read. */
export function acceptQueueLength(port: number): number | null {
  let seen = false;
  let queued = 0;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    try {
      queued += queuedOnPort(readFileSync(file, 'latin1'), port);
      seen = true;
    } catch {
      // no such file (not Linux, or IPv6 off)
    }
  }
  return seen ? queued : null;
}

/**
 * How long a graceful stop may keep taking queued connections: all of the grace period but a reserve
 * (a fifth of it, 1-3 s) for answering the last ones taken, and never less than half of it. Node takes one
 * queued connection per turn of its event loop, and a turn of a loaded process is tens of milliseconds:
 * 118 connections queued at the signal took 6 s to take in beside three CPU hogs per core, so half of an
 * 8 s grace period left 39 of them to be reset when the listening socket closed.
 */
export function drainLimitMs(graceMs: number): number {
  const reserve = Math.min(3_000, Math.max(1_000, graceMs / 5));
  return Math.max(graceMs / 2, graceMs - reserve);
}
