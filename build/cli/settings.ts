/**
 * The one registry of operator settings (Datasette-style): every flag, its `PHYSPAY_*` variable, default
 * and help text. Commands take their options from here; values are checked with zod and a bad value fails
 * fast with a message naming the flag and the variable.
 */
import { Option } from 'commander';
import { z } from 'zod';

export interface Setting {
  flags: string;
  env: string;
  description: string;
  default?: string;
  schema: z.ZodType;
}

const positiveInt = z.coerce.number().int().positive();
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD');

export const SETTINGS = {
  db: { flags: '--db <path>', env: 'PHYSPAY_DB', description: 'reports DB (SQLite file)', schema: z.string().min(1) },
  reports: { flags: '--reports <n>', env: 'PHYSPAY_DEMO_REPORTS', description: 'number of synthetic reports', default: '60000', schema: positiveInt.max(20_000_000) },
  seed: { flags: '--seed <n>', env: 'PHYSPAY_DEMO_SEED', description: 'random seed (same seed, same data)', default: '42', schema: z.coerce.number().int().min(0).max(2 ** 32 - 1) },
  asOf: { flags: '--as-of <date>', env: 'PHYSPAY_DEMO_AS_OF', description: 'the demo\'s "today": no report is submitted after it', default: '2026-11-15', schema: isoDay },
  year: { flags: '--year <year>', env: 'PHYSPAY_BLS_YEAR', description: 'OEWS year, when the BLS file has no YEAR column', schema: z.coerce.number().int().min(1997).max(2100).optional() },
  topCode: { flags: '--top-code <usd>', env: 'PHYSPAY_BLS_TOP_CODE', description: 'wage that a "#" (top-coded) OEWS median stands for', default: '239200', schema: positiveInt },
  out: { flags: '--out <dir>', env: 'PHYSPAY_OUT', description: 'dist-data folder (builds/ and the current pointer)', default: 'dist-data', schema: z.string().min(1) },
  baseUrl: { flags: '--base-url <url>', env: 'PHYSPAY_BASE_URL', description: 'public base URL written into citation_url, feed_url and pages', default: 'http://localhost:8080', schema: z.string().url() },
  publisher: { flags: '--publisher <name>', env: 'PHYSPAY_PUBLISHER', description: 'publisher named in attribution lines', default: 'PhysPay', schema: z.string().min(1).max(100) },
  buildDate: { flags: '--build-date <date>', env: 'PHYSPAY_BUILD_DATE', description: 'date written into the files\' attribution lines (default: today, UTC)', schema: isoDay.optional() },
  keep: { flags: '--keep <n>', env: 'PHYSPAY_KEEP_BUILDS', description: 'published builds to keep for rollback', default: '7', schema: positiveInt.max(1000) },
  maxCountDrop: { flags: '--max-count-drop <fraction>', env: 'PHYSPAY_MAX_COUNT_DROP', description: 'refuse to publish when reports used fall by more than this fraction', default: '0.2', schema: z.coerce.number().min(0).max(1) },
  maxMedianShift: { flags: '--max-median-shift <fraction>', env: 'PHYSPAY_MAX_MEDIAN_SHIFT', description: 'refuse to publish when a national median moves by more than this fraction', default: '0.15', schema: z.coerce.number().min(0).max(10) },
  winsorLower: { flags: '--winsor-lower <usd>', env: 'PHYSPAY_WINSOR_LOWER', description: 'keyed API: lower winsorization bound', default: '50000', schema: z.coerce.number().nonnegative() },
  winsorUpper: { flags: '--winsor-upper <usd>', env: 'PHYSPAY_WINSOR_UPPER', description: 'keyed API: upper winsorization bound', default: '3000000', schema: positiveInt },
  data: { flags: '--data <dir>', env: 'PHYSPAY_DATA', description: 'dist-data folder to serve (follows its current pointer)', default: 'dist-data', schema: z.string().min(1) },
  serviceDb: { flags: '--service-db <target>', env: 'PHYSPAY_SERVICE_DB', description: 'service store: a SQLite file path or a postgres:// URL (API keys, quotas, per-IP counters)', default: 'dist-data/service.db', schema: z.string().min(1) },
  host: { flags: '--host <host>', env: 'PHYSPAY_HOST', description: 'address to listen on', default: '127.0.0.1', schema: z.string().min(1) },
  port: { flags: '--port <port>', env: 'PHYSPAY_PORT', description: 'port to listen on (0 = any free port)', default: '8080', schema: z.coerce.number().int().min(0).max(65535) },
  workers: { flags: '--workers <n>', env: 'PHYSPAY_WORKERS', description: 'server processes sharing the port and the service store', default: '1', schema: positiveInt.max(64) },
  trustProxy: { flags: '--trust-proxy <hops|subnets>', env: 'PHYSPAY_TRUST_PROXY', description: 'believe X-Forwarded-For from this many proxy hops or these subnets (e.g. 1, or loopback,10.0.0.0/8)', schema: z.string().regex(/^(\d+|false|[\w.:/,\s-]+)$/, 'a hop count or a comma-separated list of subnets').optional() },
  ipPerMinute: { flags: '--ip-per-minute <n>', env: 'PHYSPAY_IP_PER_MINUTE', description: 'open data and tool server: requests per minute per client IP', default: '60', schema: positiveInt },
  ipPerDay: { flags: '--ip-per-day <n>', env: 'PHYSPAY_IP_PER_DAY', description: 'open data and tool server: requests per UTC day per client IP', default: '2000', schema: positiveInt },
  pollMs: { flags: '--poll-ms <ms>', env: 'PHYSPAY_POLL_MS', description: 'how often the server checks dist-data/current for a new build', default: '500', schema: z.coerce.number().int().min(50).max(60_000) },
  mcpAllowedHosts: { flags: '--mcp-allowed-hosts <hosts>', env: 'PHYSPAY_MCP_ALLOWED_HOSTS', description: 'tool server: only serve these hosts (comma-separated; an entry without a port matches any port; empty = any)', default: '', schema: z.string().max(2000) },
  mcpAllowedOrigins: { flags: '--mcp-allowed-origins <origins>', env: 'PHYSPAY_MCP_ALLOWED_ORIGINS', description: 'tool server: only accept these Origin values when an Origin is sent (comma-separated; empty = any)', default: '', schema: z.string().max(2000) },
  logLevel: { flags: '--log-level <level>', env: 'PHYSPAY_LOG_LEVEL', description: 'JSON log level on stderr: info logs every request; warn, error or silent log less', default: 'info', schema: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']) },
  shutdownGraceMs: { flags: '--shutdown-grace-ms <ms>', env: 'PHYSPAY_SHUTDOWN_GRACE_MS', description: 'on SIGTERM: how long requests in flight may finish before connections are closed', default: '10000', schema: z.coerce.number().int().min(0).max(600_000) },
} satisfies Record<string, Setting>;

export type SettingKey = keyof typeof SETTINGS;

export class ConfigError extends Error {}

/** A commander Option for a setting, reading its `PHYSPAY_*` variable when the flag is absent. */
export function option(key: SettingKey): Option {
  const s: Setting = SETTINGS[key];
  const o = new Option(s.flags, s.description).env(s.env);
  if (s.default !== undefined) o.default(s.default);
  return o;
}

/** Validate the named settings of a command's options; throws ConfigError naming the flag and variable. */
export function readSettings<K extends SettingKey>(
  opts: Record<string, unknown>,
  keys: readonly K[],
): { [P in K]: z.output<(typeof SETTINGS)[P]['schema']> } {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const s: Setting = SETTINGS[key];
    const parsed = s.schema.safeParse(opts[key]);
    if (!parsed.success) {
      const flag = s.flags.split(' ')[0];
      const why = parsed.error.issues.map((i) => i.message).join('; ');
      throw new ConfigError(`bad value for ${flag} (${s.env}): ${JSON.stringify(opts[key] ?? null)}: ${why}`);
    }
    out[key] = parsed.data;
  }
  return out as { [P in K]: z.output<(typeof SETTINGS)[P]['schema']> };
}
