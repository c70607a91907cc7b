/**
 * Prometheus metrics (prom-client): requests and latency by interface and status, quota refusals, the
 * loaded build (id and age) and swaps. With --workers the primary aggregates every worker's metrics
 * (prom-client's AggregatorRegistry over the cluster IPC channel), so /metrics shows the whole server.
 */
import cluster from 'node:cluster';
import client from 'prom-client';
import type { BuildRegistry } from '../builds/registry.ts';
import type { ServiceStore } from '../store/types.ts';
import { lastBuildReader } from '../../build/emit/last-build.ts';
import { BUILD_OUTCOMES } from '../../build/contract/last-build.ts';

export type Interface = 'open_data' | 'keyed' | 'mcp' | 'pages' | 'other';

export interface Metrics {
  registry: client.Registry;
  observe(iface: Interface, status: number, seconds: number): void;
  /** `count` requests or tool calls refused by a limit (default 1) */
  quotaRefused(iface: Interface, count?: number): void;
  swapped(): void;
  /** the service store stopped accepting reads or commits (once per outage) */
  storeFault(): void;
  /** Prometheus text of this process, or of all workers when clustered. */
  render(): Promise<{ contentType: string; body: string }>;
}

export function interfaceOf(url: string): Interface {
  if (url.startsWith('/data/api/')) return 'open_data';
  if (url.startsWith('/api/')) return 'keyed';
  if (url.startsWith('/mcp')) return 'mcp';
  if (url.startsWith('/salaries') || url.startsWith('/states') || url.startsWith('/residency') || url === '/' || url.startsWith('/methodology') || url.startsWith('/license')) return 'pages';
  return 'other';
}

export interface MetricsSources {
  /** the dist-data folder: its last-build.json (the last `physpay build`'s outcome) is read on scrape */
  dataDir?: string;
  /** the service store: the submissions waiting for `physpay import submissions`, counted on scrape */
  store?: Pick<ServiceStore, 'pendingSubmissionCount'>;
}

export function createMetrics(buildRegistry: BuildRegistry, now: () => Date, sources: MetricsSources = {}): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'physpay_' });
  const requests = new client.Counter({ name: 'physpay_http_requests_total', help: 'HTTP requests answered, by interface and status', labelNames: ['interface', 'status'], registers: [registry] });
  const latency = new client.Histogram({
    name: 'physpay_http_request_duration_seconds', help: 'Time to answer, by interface', labelNames: ['interface'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1], registers: [registry],
  });
  const refusals = new client.Counter({ name: 'physpay_quota_refusals_total', help: 'Requests refused by a per-IP limit or a key quota (429), and tool calls refused by the per-IP limit or a key quota (each call of a batch)', labelNames: ['interface'], registers: [registry] });
  const swaps = new client.Counter({ name: 'physpay_build_swaps_total', help: 'Builds swapped in without restart (first load not counted)', registers: [registry] });
  const storeFaults = new client.Counter({ name: 'physpay_store_faults_total', help: 'Outages of the service store (cannot read or commit; requests answered 503)', registers: [registry] });
  new client.Gauge({
    name: 'physpay_build_info', help: 'The build being served (value 1)', labelNames: ['build_id', 'data_as_of'], registers: [registry], aggregator: 'max',
    collect() {
      this.reset();
      const b = buildRegistry.current;
      if (b) this.set({ build_id: b.id, data_as_of: b.keyedIndex.data_as_of }, 1);
    },
  });
  new client.Gauge({
    name: 'physpay_build_age_seconds', help: 'Seconds since the served build was made', registers: [registry], aggregator: 'max',
    collect() {
      const b = buildRegistry.current;
      if (b) this.set(Math.max(0, (now().getTime() - Date.parse(b.createdAt)) / 1000));
    },
  });
  // Every worker reads the same last-build.json and the same store: the gauges below are taken from one
  // worker ('first'), not summed.
  if (sources.dataDir !== undefined) {
    const lastBuild = lastBuildReader(sources.dataDir); // a stat per scrape; read again only when it changed
    new client.Gauge({
      name: 'physpay_last_build_outcome', help: 'The outcome of the last physpay build (1; 0 for the other outcomes); no samples before a build wrote last-build.json', labelNames: ['outcome'], registers: [registry], aggregator: 'first',
      collect() {
        this.reset();
        const d = lastBuild();
        if (d) for (const o of BUILD_OUTCOMES) this.set({ outcome: o }, o === d.outcome ? 1 : 0);
      },
    });
    new client.Gauge({
      name: 'physpay_last_build_duration_seconds', help: 'How long the last physpay build took (0 before a build wrote last-build.json)', registers: [registry], aggregator: 'first',
      collect() {
        const d = lastBuild();
        this.set(d ? d.duration_ms / 1000 : 0);
      },
    });
    new client.Gauge({
      name: 'physpay_last_build_finished_timestamp_seconds', help: 'When the last physpay build ended, in seconds since the epoch (0 before a build wrote last-build.json)', registers: [registry], aggregator: 'first',
      collect() {
        const d = lastBuild();
        this.set(d ? Date.parse(d.finished_at) / 1000 : 0);
      },
    });
  }
  const store = sources.store;
  if (store) {
    new client.Gauge({
      name: 'physpay_intake_queue_depth', help: 'Submissions from /contribute waiting in the service store for physpay import submissions', registers: [registry], aggregator: 'first',
      async collect() {
        try {
          this.set(await store.pendingSubmissionCount());
        } catch {
          // the store is failing: physpay_store_faults_total says so; the last count stays
        }
      },
    });
  }
  if (cluster.isWorker) {
    // Let the primary's AggregatorRegistry collect this registry (constructing one adds the listeners).
    client.AggregatorRegistry.setRegistries([registry]);
    new client.AggregatorRegistry();
  }
  return {
    registry,
    observe(iface, status, seconds) {
      requests.inc({ interface: iface, status: String(status) });
      latency.observe({ interface: iface }, seconds);
      if (status === 429) refusals.inc({ interface: iface });
    },
    quotaRefused(iface, count = 1) {
      if (count > 0) refusals.inc({ interface: iface }, count);
    },
    swapped() {
      swaps.inc();
    },
    storeFault() {
      storeFaults.inc();
    },
    async render() {
      if (cluster.isWorker && process.send) return { contentType: registry.contentType, body: await askPrimary() };
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

// ---- cluster aggregation: a worker asks the primary, which collects from every worker.

let nextId = 0;
const pending = new Map<number, (body: string) => void>();

function askPrimary(): Promise<string> {
  return new Promise((resolve, reject) => {
    const id = ++nextId;
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error('metrics: the primary did not answer'));
    }, 5000);
    pending.set(id, (body) => {
      clearTimeout(timer);
      resolve(body);
    });
    process.send!({ type: 'physpay:metrics-request', id });
  });
}

/** In a worker: receive aggregated metrics from the primary. */
export function listenForAggregates(): void {
  process.on('message', (m: { type?: string; id?: number; body?: string }) => {
    if (m?.type === 'physpay:metrics-response' && m.id !== undefined) pending.get(m.id)?.(m.body ?? '');
  });
}

/** In the primary: answer workers' requests with every worker's metrics, aggregated. */
export function serveAggregates(): void {
  const aggregator = new client.AggregatorRegistry();
  cluster.on('message', (worker, m: { type?: string; id?: number }) => {
    if (m?.type !== 'physpay:metrics-request') return;
    aggregator.clusterMetrics().then(
      (body) => worker.send({ type: 'physpay:metrics-response', id: m.id, body }),
      (err: Error) => worker.send({ type: 'physpay:metrics-response', id: m.id, body: `# error: ${err.message}\n` }),
    );
  });
}
