/**
 * `physpay serve`: run the server (open data API, keyed API, tool server) on the current build.
 * With --workers N it forks N processes sharing the port (node:cluster) and the service store.
 * Binds the port first (a JSON log line `listening`), then loads the build (`build loaded`); prints exactly one
 * line to stdout when ready, i.e. once the build is loaded: `listening on http://HOST:PORT`. SIGTERM/SIGINT
 * stop it gracefully: stop accepting, finish requests in flight, close the stores. They are caught from the
 * command's first moment: a signal while the server's code or the build is still loading stops it the same
 * way (exit 0), without waiting for the load.
 */
import cluster from 'node:cluster';
import v8 from 'node:v8';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { acceptedValues, option, readSettings } from '../settings.ts';
import { CliError, type CliIo } from '../io.ts';
import { describeStore } from './keys.ts';
import { redactSecrets } from '../../../server/http/redact.ts';

const SERVE_KEYS = ['data', 'serviceDb', 'host', 'port', 'workers', 'trustProxy', 'ipPerMinute', 'ipPerDay', 'pollMs', 'mcpAllowedHosts', 'mcpAllowedOrigins', 'mcpRegistryName', 'mcpDirectCalls', 'logLevel', 'shutdownGraceMs', 'stripeWebhookSecret', 'stripePrices', 'billingPortalUrl', 'signupUrl', 'contact', 'intakePerDay', 'intakeWithoutJsPerDay'] as const;
const list = (v: string) => v.split(',').map((x) => x.trim()).filter(Boolean);

export function registerServeCommand(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('serve the current build: open data API, keyed API, tool server (prints "listening on URL" when ready)')
    .addOption(option('data'))
    .addOption(option('serviceDb'))
    .addOption(option('host'))
    .addOption(option('port'))
    .addOption(option('workers'))
    .addOption(option('trustProxy'))
    .addOption(option('ipPerMinute'))
    .addOption(option('ipPerDay'))
    .addOption(option('pollMs'))
    .addOption(option('mcpAllowedHosts'))
    .addOption(option('mcpAllowedOrigins'))
    .addOption(option('mcpRegistryName'))
    .addOption(option('mcpDirectCalls'))
    .addOption(option('logLevel'))
    .addOption(option('shutdownGraceMs'))
    .addOption(option('stripeWebhookSecret'))
    .addOption(option('stripePrices'))
    .addOption(option('billingPortalUrl'))
    .addOption(option('signupUrl'))
    .addOption(option('contact'))
    .addOption(option('intakePerDay'))
    .addOption(option('intakeWithoutJsPerDay'))
    .action(async (opts) => {
      const stops = catchStopSignals();
      // V8 allocation-site pretenuring: sites that allocated long-lived objects while a build was loading are
      // "tenured", and the same sites then allocate every request's short-lived objects straight into the old
      // generation. Under steady load that filled the old generation at about 4 MB/s and, after the first full
      // collection had shrunk the heap, forced a mark-compact every 2-3 s with 40-60 ms stalls
      // (bench/ANALYSIS.md, "Pretenuring"). The serving process turns it off before loading anything.
      v8.setFlagsFromString('--no-allocation-site-pretenuring');
      const s = readSettings(opts, SERVE_KEYS);
      const billing = await billingSettings(s.stripeWebhookSecret, s.stripePrices);
      const { parseTrustProxy } = await import('../../../server/http/client-ip.ts');
      let trustProxy;
      try {
        trustProxy = parseTrustProxy(s.trustProxy);
      } catch (err) {
        throw new CliError(`--trust-proxy (PHYSPAY_TRUST_PROXY) must be ${acceptedValues('trustProxy')} (got ${JSON.stringify(s.trustProxy)}: ${(err as Error).message})`, 2);
      }
      const { createLogger, logWarningsAsJson } = await import('../../../server/observability/logger.ts');
      const logger = createLogger(s.logLevel);
      const log = (line: Record<string, unknown>) => {
        const { level, msg, ...rest } = line as { level?: string; msg?: string };
        (level === 'error' ? logger.error : level === 'warn' ? logger.warn : logger.info).call(logger, rest, String(msg ?? ''));
      };
      if (stops.received()) {
        // exit explicitly: a cluster worker's IPC channel would keep the process alive
        log({ msg: `${stops.received()}: stopped before listening` });
        logger.flush();
        process.exit(0);
      }

      // A wrong --service-db (a reports DB, a file that is not SQLite, a missing folder) is refused first, as
      // the one line it is, before the port is bound; once, rather than by every worker the primary would restart.
      if (cluster.isPrimary && !/^postgres(ql)?:\/\//.test(s.serviceDb)) await (await import('../../db/kind.ts')).checkDbFile(s.serviceDb, 'service');
      if (s.workers > 1 && cluster.isPrimary) {
        // a taken port or a bad address is refused here, at once, rather than by each worker (which then hung)
        if (s.port !== 0) {
          const { listenFirst } = await import('../../../server/listen.ts');
          try {
            const probe = await listenFirst({ host: s.host, port: s.port });
            await new Promise((resolve) => probe.server.close(resolve));
          } catch (err) {
            throw listenFailure(err, s.host, s.port);
          }
        }
        const { serveAggregates } = await import('../../../server/observability/metrics.ts');
        serveAggregates();
        await runPrimary(s.workers, io, log, stops);
        return;
      }
      if (cluster.isWorker) (await import('../../../server/observability/metrics.ts')).listenForAggregates();
      // Bind the port first, before the server's code is imported and the build loaded (a second or more on
      // a large build): a taken port or a bad address is reported at once. Requests wait for the app, then get
      // 503 until the build is loaded (README: Operations, "Start-up").
      const { listenFirst } = await import('../../../server/listen.ts');
      let bound;
      try {
        bound = await listenFirst({ host: s.host, port: s.port });
      } catch (err) {
        throw listenFailure(err, s.host, s.port);
      }
      log({ msg: 'listening', url: bound.url, since_start_ms: Math.round(bound.boundAtMs), data: resolve(s.data), service_db: describeStore(s.serviceDb) });
      const { startServer, ServiceStoreOpenError } = await import('../../../server/main.ts');
      logWarningsAsJson(logger);
      let running;
      try {
        running = await startServer({
          dataDir: s.data, serviceDb: s.serviceDb, host: s.host, port: s.port,
          ipLimits: { perMinute: s.ipPerMinute, perDay: s.ipPerDay }, trustProxy, pollMs: s.pollMs, log, logger,
          shutdownGraceMs: s.shutdownGraceMs, bound,
          mcpAllowedHosts: list(s.mcpAllowedHosts), mcpAllowedOrigins: list(s.mcpAllowedOrigins),
          mcpRegistryName: s.mcpRegistryName || undefined,
          mcpDirectCalls: s.mcpDirectCalls !== 'off',
          billing,
          billingPortalUrl: s.billingPortalUrl,
          signupUrl: s.signupUrl,
          contact: s.contact,
          intakePerDay: s.intakePerDay,
          intakeWithoutJsPerDay: s.intakeWithoutJsPerDay,
          stopSignal: stops.signal,
        });
      } catch (err) {
        // Start-up failures as one sentence naming the setting, not a stack.
        const { DbKindError } = await import('../../db/kind.ts');
        if (err instanceof ServiceStoreOpenError && err.cause instanceof DbKindError) throw err.cause; // a wrong --service-db: exit 2
        if (err instanceof ServiceStoreOpenError) {
          throw new CliError(redactSecrets(`cannot open the service store given by --service-db (PHYSPAY_SERVICE_DB) ${describeStore(err.target)}: ${err.message}`));
        }
        throw listenFailure(err, s.host, s.port);
      }
      const server = running;
      stops.onStop((signal) => {
        log({ msg: `${signal}: shutting down gracefully${server.registry.current ? '' : ' (no build loaded yet)'}` });
        void server.close().then(() => process.exit(0));
      });
      if (stops.received()) return;
      if (!running.registry.current) log({ level: 'warn', msg: `no build in ${s.data} yet: data endpoints answer 503 until one is published` });
      if (cluster.isWorker) process.send?.({ type: 'listening', url: running.url });
      else io.out(`listening on ${running.url}`);
      await new Promise(() => {}); // serve until a signal
    });
}

/**
 * The billing settings, checked at start: both or neither of the webhook secret and the price mapping, and
 * a mapping without problems. Every problem is reported, one sentence (line) each (exit 2).
 */
export async function billingSettings(secret: string | undefined, prices: string | undefined): Promise<import('../../../server/billing/webhook.ts').BillingConfig | undefined> {
  if (secret === undefined && (prices === undefined || prices.trim() === '')) return undefined;
  const { parsePriceMap } = await import('../../../server/billing/prices.ts');
  const errors: string[] = [];
  if (secret === undefined) errors.push('--stripe-prices (PHYSPAY_STRIPE_PRICES) is set but --stripe-webhook-secret (PHYSPAY_STRIPE_WEBHOOK_SECRET) is not; give the webhook endpoint\'s signing secret (whsec_...) too, or remove the prices');
  const parsed = prices === undefined || prices.trim() === ''
    ? { map: new Map(), errors: ['--stripe-webhook-secret (PHYSPAY_STRIPE_WEBHOOK_SECRET) is set but --stripe-prices (PHYSPAY_STRIPE_PRICES) is not; name the Stripe prices of each plan sold, e.g. starter=price_123;professional=price_456'] }
    : parsePriceMap(prices);
  errors.push(...parsed.errors);
  if (errors.length) throw new CliError(errors.join('\nphyspay: '), 2); // one line each, like every error
  return { webhookSecret: secret!, prices: parsed.map };
}

/** A listen error as the one sentence naming --host and --port (exit 1); any other error as it is. */
function listenFailure(err: unknown, host: string, port: number): unknown {
  const code = (err as { code?: string }).code;
  if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new CliError(`cannot listen on ${host}:${port} (--host, --port): ${code}`);
  }
  return err;
}

/** The first SIGTERM or SIGINT, caught from the moment this is called (a second one kills at once, as Node does). */
interface StopSignals {
  signal: AbortSignal;
  /** the signal received, or null */
  received(): string | null;
  /** call `fn` with the signal's name when it comes (now, when it came already) */
  onStop(fn: (signal: string) => void): void;
}

function catchStopSignals(): StopSignals {
  const controller = new AbortController();
  // one that came while the CLI was loading (bin/physpay.js records it)
  let received = ((globalThis as Record<symbol, unknown>)[Symbol.for('physpay.earlyStopSignal')] as string | undefined) ?? null;
  if (received !== null) controller.abort(received);
  const catchOne = (name: string) => () => {
    if (received !== null) return;
    received = name;
    controller.abort(name);
  };
  process.once('SIGTERM', catchOne('SIGTERM'));
  process.once('SIGINT', catchOne('SIGINT'));
  return {
    signal: controller.signal,
    received: () => received,
    onStop(fn) {
      if (received !== null) fn(received);
      else controller.signal.addEventListener('abort', () => fn(received!), { once: true });
    },
  };
}

async function runPrimary(workers: number, io: CliIo, log: (l: Record<string, unknown>) => void, stops: StopSignals): Promise<void> {
  let ready = 0;
  let url = '';
  let stopping = false;
  const onMessage = (msg: unknown) => {
    const m = msg as { type?: string; url?: string };
    if (m.type === 'listening') {
      url = m.url!;
      if (++ready === workers) io.out(`listening on ${url}`);
    }
  };
  // The workers accept from the shared listening socket themselves (SCHED_NONE) rather than being handed
  // connections by the primary (round robin): on SIGTERM each worker keeps accepting until the kernel's queue
  // is empty (server/main.ts), while a round-robin primary dropped the connections still in its own queue
  // when the last worker stopped (0 to 110 of 160 requests written before the signal were reset).
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  for (let i = 0; i < workers; i++) cluster.fork().on('message', onMessage);
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    log({ level: 'error', msg: `worker ${worker.process.pid} exited (${signal ?? code}); starting a new one` });
    cluster.fork().on('message', onMessage);
  });
  stops.onStop((signal) => {
    stopping = true;
    log({ msg: `${signal}: stopping ${workers} workers gracefully` });
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
  });
  await new Promise(() => {});
}
