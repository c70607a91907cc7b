/**
 * The server's entry point: the only place that listens. `startServer` wires the build registry, the
 * service store and the app, listens, and returns a handle to stop it gracefully.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BuildRegistry } from './builds/registry.ts';
import { KeyedBuildData } from './keyed/build-data.ts';
import { createApp, DEFAULT_IP_LIMITS } from './app.ts';
import { openServiceStore } from './store/open.ts';
import { systemClock, type Clock } from './http/clock.ts';
import type { TrustProxy } from './http/client-ip.ts';
import type { IpLimits, ServiceStore } from './store/types.ts';

export interface ServerConfig {
  dataDir: string;
  serviceDb: string;
  host: string;
  port: number;
  ipLimits: IpLimits;
  trustProxy: TrustProxy;
  /** how often to look at dist-data/current, ms */
  pollMs: number;
  clock?: Clock;
  log?: (line: Record<string, unknown>) => void;
  mcpAllowedHosts?: string[];
  mcpAllowedOrigins?: string[];
}

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  registry: BuildRegistry;
  store: ServiceStore;
  close(): Promise<void>;
}

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const log = config.log ?? (() => {});
  const store = await openServiceStore(config.serviceDb);
  const registry = new BuildRegistry(config.dataDir, {
    onSwap: (b, prev) => {
      log({ msg: prev ? 'build swapped' : 'build loaded', build_id: b.id, previous: prev?.id ?? null });
      void KeyedBuildData.of(b).preload().catch((err) => log({ level: 'error', msg: `keyed artifacts of ${b.id}: ${(err as Error).message}` }));
    },
    onError: (message) => log({ level: 'error', msg: message }),
  });
  await registry.start(config.pollMs);
  const app = createApp({ registry, store, clock: config.clock ?? systemClock, ipLimits: config.ipLimits ?? DEFAULT_IP_LIMITS, trustProxy: config.trustProxy,
    mcpAllowedHosts: config.mcpAllowedHosts, mcpAllowedOrigins: config.mcpAllowedOrigins });
  const server = createServer({ keepAliveTimeout: 65_000 }, app.listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const pruneTimer = setInterval(() => {
    void Promise.resolve(store.pruneIp(Math.floor((config.clock ?? systemClock)().getTime() / 86_400_000) - 1)).catch(() => {});
  }, 3_600_000);
  pruneTimer.unref();
  let closing: Promise<void> | null = null;
  return {
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    port,
    server,
    registry,
    store,
    close() {
      closing ??= (async () => {
        clearInterval(pruneTimer);
        registry.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await store.close();
      })();
      return closing;
    },
  };
}
