/**
 * The server's entry point: the only place that listens. `startServer` wires the build registry, the
 * service store and the app, listens, then loads the current build (answering 503 meanwhile), and returns a
 * handle to stop it gracefully once the build is loaded.
 */
import type { Server } from 'node:http';
import net from 'node:net';
import { BuildRegistry } from './builds/registry.ts';
import { KeyedBuildData } from './keyed/build-data.ts';
import { createMetrics } from './observability/metrics.ts';
import type { Logger } from './observability/logger.ts';
import { createApp, DEFAULT_IP_LIMITS } from './app.ts';
import { openServiceStore } from './store/open.ts';
import { systemClock, type Clock } from './http/clock.ts';
import type { TrustProxy } from './http/client-ip.ts';
import type { IpLimits, ServiceStore } from './store/types.ts';
import { listenFirst, type BoundServer } from './listen.ts';
import { acceptQueueLength, drainLimitMs } from './http/accept-queue.ts';
import type { BillingConfig } from './billing/webhook.ts';

export { answerClientError, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './listen.ts';

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
  /** answer plain tool calls without an SDK server per request (default on; off: the SDK answers everything) */
  mcpDirectCalls?: boolean;
  /** the name in /.well-known/mcp/server.json (official MCP registry); default: from the build's base URL */
  mcpRegistryName?: string;
  /** Stripe billing: the webhook's signing secret and the price mapping (default: none, the webhook answers 404) */
  billing?: BillingConfig;
  /** /contribute: submissions a client may make per UTC day (default 5) */
  intakePerDay?: number;
  /** /contribute: reports without a proof of work (no JavaScript) the whole site takes per UTC day (default 20) */
  intakeWithoutJsPerDay?: number;
  /** the billing provider's customer portal, linked from /account (default: not linked) */
  billingPortalUrl?: string;
  /** where people buy an API key, linked from /account (default: not linked) */
  signupUrl?: string;
  /** whom to ask for a key (an email address or a URL), named on /account (default: none) */
  contact?: string;
  /** JSON request logs (pino); default: none (the CLI passes one) */
  logger?: Logger;
  /** Prometheus metrics at /metrics (default on) */
  metrics?: boolean;
  /** graceful shutdown: how long in-flight requests may take before connections are cut, ms */
  shutdownGraceMs?: number;
  /**
   * A stop asked for before the server is ready (SIGTERM while the build loads): startServer then returns
   * without waiting for the build (or without starting to load it), and the caller closes the server.
   */
  stopSignal?: AbortSignal;
  /** slow clients: how long a client may take to send its request headers / its whole request, ms (tests shorten them) */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /**
   * The port, already bound by listenFirst (server/listen.ts): `physpay serve` binds it before it imports
   * this file, so a taken port is reported at once. Without it, startServer binds the port itself, first.
   */
  bound?: BoundServer;
}

export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  registry: BuildRegistry;
  store: ServiceStore;
  close(): Promise<void>;
}

/**
 * Graceful stop: keep accepting until the kernel's queue of connections waiting for this server is empty
 * (server/http/accept-queue.ts), for at most drainLimitMs(grace). Where the queue cannot be read (not
 * Linux), until no new connection came for QUIET_MS.
 */
const QUIET_MS = 100;
/** How often the service store is checked (SQLite: deleted or replaced file, lost write access; PostgreSQL: a query answered). */
const STORE_PROBE_MS = 1_000;

/** The service store could not be opened at start (a missing folder, a file that is not a DB, PostgreSQL down). */
export class ServiceStoreOpenError extends Error {
  constructor(readonly target: string, cause: unknown) {
    const code = (cause as { code?: string }).code;
    super(`${(cause as Error).message ?? String(cause)}${code && !(cause as Error).message?.includes(code) ? ` (${code})` : ''}`, { cause });
  }
}

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const logger = config.logger;
  const log = config.log ?? ((line: Record<string, unknown>) => {
    if (!logger) return;
    const { level, msg, ...rest } = line as { level?: string; msg?: string };
    (level === 'error' ? logger.error : level === 'warn' ? logger.warn : logger.info).call(logger, rest, String(msg ?? ''));
  });
  const clock = config.clock ?? systemClock;
  let metricsRef: ReturnType<typeof createMetrics> | undefined;
  // The service store's health: one error line when it stops reading or committing (every request is then
  // answered 503 with Retry-After, never served uncounted), one line when it works again; /readyz says so.
  let storeFault: string | null = null;
  // Listen first, then load the build (README: Operations, "Start-up"): a taken port or a bad address is
  // reported at once, not after the seconds a large build takes to read and verify. Until the build is
  // loaded every interface answers as it does before a first build is published (503 with Retry-After;
  // /healthz 200, /readyz 503 naming the build being loaded).
  const bound = config.bound ?? await listenFirst(config);
  if (!config.bound) log({ msg: 'listening', url: bound.url, since_start_ms: Math.round(bound.boundAtMs) });
  const { server, port, url } = bound;
  let store: ServiceStore;
  try {
    store = await openServiceStore(config.serviceDb, {
      onFault: (message) => {
        storeFault = message;
        metricsRef?.storeFault();
        log({ level: 'error', msg: `service store unavailable: ${message}` });
      },
      onRecover: () => {
        storeFault = null;
        log({ level: 'warn', msg: 'service store available again' });
      },
    });
  } catch (err) {
    server.close();
    throw new ServiceStoreOpenError(config.serviceDb, err);
  }
  const registry = new BuildRegistry(config.dataDir, {
    onSwap: (b, prev, loadMs) => {
      if (prev) metricsRef?.swapped();
      // load_ms: reading and verifying the build; since_start_ms: from the process's start (the first load:
      // when the server became ready)
      log({ msg: prev ? 'build swapped' : 'build loaded', build_id: b.id, previous: prev?.id ?? null, load_ms: Math.round(loadMs), since_start_ms: Math.round(performance.now()) });
      void KeyedBuildData.of(b).preload().catch((err) => log({ level: 'error', msg: `keyed artifacts of ${b.id}: ${(err as Error).message}` }));
    },
    onError: (message) => log({ level: 'error', msg: message }),
  });
  metricsRef = config.metrics === false ? undefined : createMetrics(registry, clock, { dataDir: config.dataDir, store });
  let shuttingDown = false;
  const app = createApp({ registry, store, clock, ipLimits: config.ipLimits ?? DEFAULT_IP_LIMITS, trustProxy: config.trustProxy,
    mcpAllowedHosts: config.mcpAllowedHosts, mcpAllowedOrigins: config.mcpAllowedOrigins, mcpDirectCalls: config.mcpDirectCalls,
    mcpRegistryName: config.mcpRegistryName, billing: config.billing, billingPortalUrl: config.billingPortalUrl, signupUrl: config.signupUrl, contact: config.contact, intakePerDay: config.intakePerDay, intakeWithoutJsPerDay: config.intakeWithoutJsPerDay,
    metrics: metricsRef, logger, closing: () => shuttingDown, storeFault: () => storeFault });
  const stop = config.stopSignal;
  // the registry starts before the app gets the requests that waited for it, so /readyz names the build
  const loaded = stop?.aborted ? null : registry.start(config.pollMs);
  bound.serve(app.listener);
  const pruneTimer = setInterval(() => {
    void Promise.resolve(store.pruneIp(Math.floor(clock().getTime() / 86_400_000) - 1)).catch(() => {});
  }, 3_600_000);
  pruneTimer.unref();
  const probeTimer = setInterval(() => {
    void Promise.resolve().then(() => store.probe?.()).catch(() => {}); // faults are reported by the store's events
  }, STORE_PROBE_MS);
  probeTimer.unref();
  let closing: Promise<void> | null = null;
  const running: RunningServer = {
    url,
    port,
    server,
    registry,
    store,
    /**
     * Graceful stop: take the connections already queued (until the kernel's accept queue is empty), then
     * stop accepting; let requests in flight finish (their answers say Connection: close),
     * close keep-alive connections as they go idle, cut what is left after the grace period, then close
     * the stores.
     */
    close() {
      closing ??= (async () => {
        shuttingDown = true;
        clearInterval(pruneTimer);
        clearInterval(probeTimer);
        registry.stop();
        const grace = config.shutdownGraceMs ?? 10_000;
        const cut = setTimeout(() => server.closeAllConnections(), grace);
        // Closing the listener at once would reset connections a client already opened and wrote its
        // request on but that this process has not accepted yet: Node takes one connection from the kernel's
        // queue per turn of its event loop, so on a busy process a hundred queued connections take seconds.
        // So: keep accepting until the queue is empty (read from the kernel; where it cannot be read, until
        // two loop turns and QUIET_MS passed without a new connection), for at most drainLimitMs(grace);
        // stop listening in the same step as the last look, let two more turns read what they sent, and only
        // then close keep-alive connections as they go idle. With --workers every worker does this on the
        // shared socket (the primary hands out no connections itself: serve sets SCHED_NONE), so each
        // queued connection is taken by some worker.
        const turn = () => new Promise((r) => setTimeout(r, 1)); // at least one full event loop iteration
        const started = Date.now();
        let accepted = 0;
        const onConnection = () => {
          accepted++;
        };
        server.on('connection', onConnection);
        let last = started;
        let quietTurns = 0;
        const drainFor = drainLimitMs(grace);
        while (Date.now() - started < drainFor) {
          const before = accepted;
          await turn();
          const queued = acceptQueueLength(port);
          if (queued !== null) {
            if (queued === 0) break;
            continue;
          }
          if (accepted !== before) {
            last = Date.now();
            quietTurns = 0;
          } else if (++quietTurns >= 2 && Date.now() - last >= QUIET_MS) break;
        }
        server.off('connection', onConnection);
        log({ msg: 'stopped accepting connections', accepted_while_draining: accepted, drain_ms: Date.now() - started });
        const stopped = new Promise<void>((resolve) => {
          // net's close: stop listening; called back once every connection has ended
          net.Server.prototype.close.call(server, () => resolve());
        });
        await turn();
        await turn();
        server.closeIdleConnections();
        const idle = setInterval(() => server.closeIdleConnections(), 50);
        await stopped;
        clearInterval(idle);
        clearTimeout(cut);
        await store.close();
        logger?.flush();
      })();
      return closing;
    },
  };
  if (loaded) {
    await (stop ? Promise.race([loaded, new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }))]) : loaded);
  }
  return running;
}
