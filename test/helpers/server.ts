/**
 * Servers for tests, on a real port (127.0.0.1, a port the system picks): the whole server of
 * server/main.ts (startTestServer), the app of server/app.ts with a SQLite service store of its own
 * (serveApp), or any request listener (listen). `closeAfterAll` ends what a file started (also `physpay
 * serve` processes of test/server/serve-process.ts).
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';
import { createApp, type AppDeps } from '../../server/app.ts';
import { startServer, type RunningServer, type ServerConfig } from '../../server/main.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';

/** What tests start a server with unless they say otherwise: limits no test reaches, no proxy, a slow poll. */
export const TEST_SERVER = {
  host: '127.0.0.1',
  port: 0,
  ipLimits: { perMinute: 1_000_000, perDay: 10_000_000 },
  trustProxy: false,
  pollMs: 60_000,
} as const satisfies Omit<ServerConfig, 'dataDir' | 'serviceDb'>;

/** startServer over `dataDir` with the service DB `serviceDb`, on TEST_SERVER settings overridden by `extra`. */
export function startTestServer(dataDir: string, serviceDb: string, extra: Partial<ServerConfig> = {}): Promise<RunningServer> {
  return startServer({ ...TEST_SERVER, dataDir, serviceDb, ...extra });
}

export interface Listening {
  /** http://127.0.0.1:<port> */
  url: string;
  server: Server;
  /** stop listening and end idle keep-alive connections */
  close(): Promise<void>;
}

/** Serve `listener` on 127.0.0.1 at a port the system picks. */
export async function listen(listener: RequestListener): Promise<Listening> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

export interface AppServer extends Listening {
  store: SqliteServiceStore;
}

/** createApp with a new SQLite service store at `serviceDb`, on a real port; close() closes the store too. */
export async function serveApp(serviceDb: string, deps: Omit<AppDeps, 'store'>): Promise<AppServer> {
  const store = new SqliteServiceStore(serviceDb);
  const listening = await listen(createApp({ ...deps, store }).listener);
  return {
    ...listening,
    store,
    async close() {
      await listening.close();
      store.close();
    },
  };
}

/** Something to end after the tests: a server, client or store (close()), or a process (stop()). */
export type Closable = { close(): unknown } | { stop(): unknown };

/**
 * Returns `later(item)`, which keeps `item` and gives it back; afterAll ends every kept item, newest first
 * (a client before the server it talks to).
 */
export function closeAfterAll(): <T extends Closable>(item: T) => T {
  const open: Closable[] = [];
  afterAll(async () => {
    for (const item of open.splice(0).reverse()) await ('close' in item ? item.close() : item.stop());
  });
  return (item) => {
    open.push(item);
    return item;
  };
}
