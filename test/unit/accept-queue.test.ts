/**
 * The shutdown drain's view of the kernel's queue (server/http/accept-queue.ts): the accept queue of a
 * listening socket is the rx_queue of its LISTEN row in /proc/net/tcp, and a handshake in progress is a
 * SYN_RECV row on the same local port; other ports, established connections and client sockets do not count.
 */
import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { acceptQueueLength, drainLimitMs, queuedOnPort } from '../../server/http/accept-queue.ts';

const PROC = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000077 00:00000000 00000000     0        0 470 1 0000000000000000 100 0 0 10 0
   1: 0100007F:1F91 00000000:0000 0A 00000000:00000005 00:00000000 00000000     0        0 471 1 0000000000000000 100 0 0 10 0
   2: 0100007F:1F90 0100007F:D2F0 03 00000000:00000000 00:00000000 00000000     0        0 0 1 0000000000000000 100 0 0 10 0
   3: 0100007F:1F90 0100007F:D2F1 01 00000000:00000010 00:00000000 00000000     0        0 472 1 0000000000000000 100 0 0 10 0
   4: 0100007F:D2F2 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 473 1 0000000000000000 100 0 0 10 0
`;

describe('queuedOnPort', () => {
  it('counts the LISTEN row\'s accept queue and the port\'s SYN_RECV rows, nothing else', () => {
    expect(queuedOnPort(PROC, 0x1f90)).toBe(0x77 + 1);
    expect(queuedOnPort(PROC, 0x1f91)).toBe(5);
    expect(queuedOnPort(PROC, 0xd2f2)).toBe(0); // a client socket's port
    expect(queuedOnPort(PROC, 80)).toBe(0);
    expect(queuedOnPort('', 0x1f90)).toBe(0);
  });
});

describe.skipIf(!existsSync('/proc/net/tcp'))('acceptQueueLength on this machine', () => {
  it('sees the connections a busy server has not accepted yet', async () => {
    // a server in another process that listens, then keeps its event loop busy for 5 s (accepts nothing)
    const child = spawn(process.execPath, ['-e', "require('net').createServer().listen(0, '127.0.0.1', function () { process.stdout.write(this.address().port + '\\n'); const t = Date.now(); while (Date.now() - t < 5000); })"], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const port = Number(await new Promise<string>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()))));
      expect(acceptQueueLength(port)).toBe(0);
      const clients = await Promise.all(Array.from({ length: 3 }, () => new Promise<Socket>((resolve) => {
        const c = connect(port, '127.0.0.1', () => resolve(c));
        c.on('error', () => {});
      })));
      expect(acceptQueueLength(port)).toBe(3);
      clients.forEach((c) => c.destroy());
    } finally {
      child.kill('SIGKILL');
    }
  }, 20_000);
});

describe('drainLimitMs: how long a stop keeps taking queued connections', () => {
  it('all of the grace period but a reserve of a fifth (1-3 s) for the last answers, never less than half', () => {
    expect(drainLimitMs(10_000)).toBe(8_000); // the default grace: 2 s reserve
    expect(drainLimitMs(8_000)).toBe(6_400);
    expect(drainLimitMs(30_000)).toBe(27_000); // reserve capped at 3 s
    expect(drainLimitMs(2_000)).toBe(1_000); // reserve at least 1 s, drain at least half
    expect(drainLimitMs(1_000)).toBe(500);
    for (let g = 0; g <= 60_000; g += 250) {
      expect(drainLimitMs(g)).toBeGreaterThanOrEqual(g / 2);
      expect(drainLimitMs(g)).toBeLessThanOrEqual(g);
    }
  });
});
