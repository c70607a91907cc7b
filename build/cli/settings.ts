/**
 * The one registry of operator settings (Datasette-style): every flag, its `PHYSPAY_*` variable, default
 * and help text. Commands take their options from here; values are checked with zod and a bad value fails
 * fast with a message naming the flag and the variable.
 *
 * Every setting can also come from a config file (`physpay.config.json` in the working directory, or the
 * file named by `--config` / `PHYSPAY_CONFIG`), keyed by its name here (`baseUrl`) or its flag (`base-url`).
 * Precedence: flag > variable > config file > default. The file is checked as a whole before any command
 * runs: an unknown key or a bad value is a usage error (exit 2) naming the key and the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { z } from 'zod';
import { CliError } from './io.ts';
import { priceMapText } from '../../server/billing/prices.ts';

export interface Setting {
  flags: string;
  env: string;
  description: string;
  default?: string;
  schema: z.ZodType;
}

const positiveInt = z.coerce.number().int().positive();
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(d)) && new Date(Date.parse(d)).toISOString().startsWith(d), 'must be a date YYYY-MM-DD');

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
  headlineYears: { flags: '--headline-years <n>', env: 'PHYSPAY_HEADLINE_YEARS', description: 'complete compensation years in the open data\'s headline figures (the most recent ones)', default: '3', schema: positiveInt.max(50) },
  keep: { flags: '--keep <n>', env: 'PHYSPAY_KEEP_BUILDS', description: 'published builds to keep for rollback', default: '7', schema: positiveInt.max(1000) },
  maxCountDrop: { flags: '--max-count-drop <fraction>', env: 'PHYSPAY_MAX_COUNT_DROP', description: 'refuse to publish when approved reports fall by more than this fraction', default: '0.2', schema: z.coerce.number().min(0).max(1) },
  maxMedianShift: { flags: '--max-median-shift <fraction>', env: 'PHYSPAY_MAX_MEDIAN_SHIFT', description: 'refuse to publish when a national median moves by more than this fraction', default: '0.15', schema: z.coerce.number().min(0).max(10) },
  winsorLower: { flags: '--winsor-lower <usd>', env: 'PHYSPAY_WINSOR_LOWER', description: 'keyed API: lower winsorization bound', default: '50000', schema: z.coerce.number().nonnegative() },
  winsorUpper: { flags: '--winsor-upper <usd>', env: 'PHYSPAY_WINSOR_UPPER', description: 'keyed API: upper winsorization bound', default: '3000000', schema: positiveInt },
  data: { flags: '--data <dir>', env: 'PHYSPAY_DATA', description: 'dist-data folder to serve (follows its current pointer)', default: 'dist-data', schema: z.string().min(1) },
  backupDir: { flags: '--backup-dir <dir>', env: 'PHYSPAY_BACKUP_DIR', description: 'backup: folder the copies are written to (created if missing; existing copies are never overwritten)', schema: z.string().min(1) },
  serviceDb: { flags: '--service-db <target>', env: 'PHYSPAY_SERVICE_DB', description: 'service store: a SQLite file path or a postgres:// URL (API keys, quotas, per-IP counters, reports waiting from /contribute); kept outside dist-data', default: 'service.db', schema: z.string().min(1) },
  host: { flags: '--host <host>', env: 'PHYSPAY_HOST', description: 'address to listen on', default: '127.0.0.1', schema: z.string().min(1) },
  port: { flags: '--port <port>', env: 'PHYSPAY_PORT', description: 'port to listen on (0 = any free port)', default: '8080', schema: z.coerce.number().int().min(0).max(65535) },
  workers: { flags: '--workers <n>', env: 'PHYSPAY_WORKERS', description: 'server processes sharing the port and the service store', default: '1', schema: positiveInt.max(64) },
  trustProxy: { flags: '--trust-proxy <hops|subnets>', env: 'PHYSPAY_TRUST_PROXY', description: 'believe X-Forwarded-For from this many proxy hops or these subnets (e.g. 1, or loopback,10.0.0.0/8)', schema: z.string().regex(/^(\d+|false|[\w.:/,\s-]+)$/, 'a hop count or a comma-separated list of subnets').optional() },
  ipPerMinute: { flags: '--ip-per-minute <n>', env: 'PHYSPAY_IP_PER_MINUTE', description: 'open data and tool server: requests per minute per client IP', default: '60', schema: positiveInt },
  ipPerDay: { flags: '--ip-per-day <n>', env: 'PHYSPAY_IP_PER_DAY', description: 'open data and tool server: requests per UTC day per client IP', default: '2000', schema: positiveInt },
  pollMs: { flags: '--poll-ms <ms>', env: 'PHYSPAY_POLL_MS', description: 'how often the server checks dist-data/current for a new build', default: '500', schema: z.coerce.number().int().min(50).max(60_000) },
  mcpAllowedHosts: { flags: '--mcp-allowed-hosts <hosts>', env: 'PHYSPAY_MCP_ALLOWED_HOSTS', description: 'tool server: only serve these hosts (comma-separated; an entry without a port matches any port; empty = any)', default: '', schema: z.string().max(2000) },
  mcpAllowedOrigins: { flags: '--mcp-allowed-origins <origins>', env: 'PHYSPAY_MCP_ALLOWED_ORIGINS', description: 'tool server: only accept these Origin values when an Origin is sent (comma-separated; empty = any)', default: '', schema: z.string().max(2000) },
  mcpRegistryName: { flags: '--mcp-registry-name <name>', env: 'PHYSPAY_MCP_REGISTRY_NAME', description: 'tool server: the name in /.well-known/mcp/server.json for the official MCP registry, namespace/name (e.g. io.github.owner/physpay; default: the base URL\'s host reversed, then /physpay)', schema: z.string().max(200).regex(/^$|^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, 'namespace/name').optional() },
  mcpDirectCalls: { flags: '--mcp-direct-calls <on|off>', env: 'PHYSPAY_MCP_DIRECT_CALLS', description: 'tool server: answer plain tool calls without building an SDK server per request (the same answers; off: every request goes through the SDK)', default: 'on', schema: z.enum(['on', 'off']) },
  logLevel: { flags: '--log-level <level>', env: 'PHYSPAY_LOG_LEVEL', description: 'JSON log level on stderr: info logs every request; warn, error or silent log less', default: 'info', schema: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']) },
  config: { flags: '--config <file>', env: 'PHYSPAY_CONFIG', description: 'JSON file of settings by name, e.g. {"db": "reports.db", "baseUrl": "https://..."} (default: physpay.config.json in the working directory, when present)', schema: z.string().min(1).optional() },
  shutdownGraceMs: { flags: '--shutdown-grace-ms <ms>', env: 'PHYSPAY_SHUTDOWN_GRACE_MS', description: 'on SIGTERM: how long requests in flight may finish before connections are closed', default: '10000', schema: z.coerce.number().int().min(0).max(600_000) },
  onPublish: { flags: '--on-publish <command>', env: 'PHYSPAY_ON_PUBLISH', description: 'shell command run after a build is published or rolled back (e.g. an edge-cache ban); gets PHYSPAY_BUILD_ID, PHYSPAY_PREVIOUS_BUILD_ID, PHYSPAY_OUT and PHYSPAY_EVENT', schema: z.string().trim().min(1).max(4000).optional() },
  stripeWebhookSecret: { flags: '--stripe-webhook-secret <secret>', env: 'PHYSPAY_STRIPE_WEBHOOK_SECRET', description: 'serve: the signing secret of the Stripe webhook endpoint (whsec_...); enables POST /billing/stripe/webhook (never logged)', schema: z.string().regex(/^whsec_[A-Za-z0-9+/=_-]{8,200}$/).optional() },
  stripePrices: { flags: '--stripe-prices <mapping>', env: 'PHYSPAY_STRIPE_PRICES', description: 'serve: the Stripe prices of each plan, plan=price_id[,price_id...] separated by ";" (in the config file also {"starter": ["price_..."], ...})', schema: z.string().max(20_000).optional() },
  intakePerDay: { flags: '--intake-per-day <n>', env: 'PHYSPAY_INTAKE_PER_DAY', description: 'serve: reports one client (network address) may submit on /contribute per UTC day', default: '5', schema: z.coerce.number().int().min(1).max(1000) },
  intakeWithoutJsPerDay: { flags: '--intake-without-js-per-day <n>', env: 'PHYSPAY_INTAKE_WITHOUT_JS_PER_DAY', description: 'serve: reports without a proof of work (the form without JavaScript) the whole site takes on /contribute per UTC day; 0 refuses them all', default: '20', schema: z.coerce.number().int().min(0).max(100000) },
  billingPortalUrl: { flags: '--billing-portal-url <url>', env: 'PHYSPAY_BILLING_PORTAL_URL', description: 'serve: the billing provider\'s customer portal (e.g. a Stripe customer portal login link), linked from /account for card and plan changes', schema: z.string().max(2000).refine((v) => portalUrlOk(v), 'an https:// URL (http:// only for localhost)').optional() },
  signupUrl: { flags: '--signup-url <url>', env: 'PHYSPAY_SIGNUP_URL', description: 'serve: where people buy an API key (e.g. a Stripe Payment Link or a pricing page with the Checkout buttons), linked from /account for visitors without a key', schema: z.string().max(2000).refine((v) => portalUrlOk(v), 'an https:// URL (http:// only for localhost)').optional() },
  contact: { flags: '--contact <email-or-url>', env: 'PHYSPAY_CONTACT', description: 'serve: whom to ask for an API key or a plan change, an email address or an https:// URL, named on /account', schema: z.string().trim().max(300).refine((v) => contactOk(v), 'an email address or an https:// URL').optional() },
  moderator: { flags: '--moderator <name>', env: 'PHYSPAY_MODERATOR', description: 'moderate: the name recorded with each decision (default: the OS user)', schema: z.string().trim().min(1).max(100).optional() },
} satisfies Record<string, Setting>;

export type SettingKey = keyof typeof SETTINGS;

/** A billing portal link: https, or http on this machine (a local test double). */
function portalUrlOk(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || (u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname));
  } catch {
    return false;
  }
}

/** A contact: an email address (name@host.tld) or a link as the portal's. */
export function contactOk(v: string): boolean {
  return /^[^\s@<>"]+@[^\s@<>"]+\.[A-Za-z]{2,}$/.test(v) || portalUrlOk(v);
}

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
    const value = opts[key];
    // A number is written in decimal: "" is not 0, and "0x50" or " 80" are not 80 (zod's coercion would say so).
    const notDecimal = isNumeric(s.schema) && typeof value === 'string' && !/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(value);
    const parsed = notDecimal ? null : s.schema.safeParse(value);
    if (!parsed?.success) throw new ConfigError(settingProblem(key, value));
    out[key] = parsed.data;
  }
  return out as { [P in K]: z.output<(typeof SETTINGS)[P]['schema']> };
}

/** Settings whose values are never printed (messages say only their length). */
const SECRET_SETTINGS = new Set<SettingKey>(['stripeWebhookSecret']);

/** Values of some settings in words, where the schema alone (a pattern) does not say it well. */
const ACCEPTS: Partial<Record<SettingKey, string>> = {
  asOf: 'a date YYYY-MM-DD',
  buildDate: 'a date YYYY-MM-DD',
  baseUrl: 'an absolute URL such as https://physpay.example',
  trustProxy: 'a hop count (e.g. 1) or a comma-separated list of subnets (e.g. loopback,10.0.0.0/8)',
  stripeWebhookSecret: 'the signing secret Stripe shows for the webhook endpoint, whsec_ followed by letters and digits',
  mcpRegistryName: 'namespace/name such as io.github.owner/physpay or com.example.physpay/physpay (letters, digits, dots and dashes, and underscores after the slash; at most 200 characters)',
  billingPortalUrl: 'an https:// URL (http:// only for localhost), e.g. a Stripe customer portal login link https://billing.stripe.com/p/login/...',
  signupUrl: 'an https:// URL (http:// only for localhost), e.g. a Stripe Payment Link https://buy.stripe.com/...',
  contact: 'an email address such as keys@example.org or an https:// URL such as a contact page',
};

function unwrapSchema(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
  return s;
}

function isNumeric(schema: z.ZodType): boolean {
  return unwrapSchema(schema) instanceof z.ZodNumber;
}

/** What a setting accepts, in words read from its schema: "a whole number from 1 to 1000", "one of a, b". */
export function acceptedValues(key: SettingKey): string {
  const override = ACCEPTS[key];
  if (override) return override;
  const s = unwrapSchema((SETTINGS[key] as Setting).schema);
  if (s instanceof z.ZodNumber) {
    const what = s.isInt ? 'a whole number' : 'a number';
    let lo = s.minValue ?? -Infinity;
    let hi = s.maxValue ?? Infinity;
    const huge = (v: number) => !Number.isFinite(v) || Math.abs(v) >= Number.MAX_SAFE_INTEGER;
    const loOpen = !huge(lo) && !s.safeParse(lo).success;
    const hiOpen = !huge(hi) && !s.safeParse(hi).success;
    if (s.isInt) {
      if (loOpen) lo += 1;
      if (hiOpen) hi -= 1;
    }
    if (!huge(lo) && !huge(hi)) return `${what} from ${lo} to ${hi}`;
    if (!huge(lo)) return !s.isInt && loOpen ? `${what} above ${lo}` : `${what} of ${lo} or more`;
    if (!huge(hi)) return !s.isInt && hiOpen ? `${what} below ${hi}` : `${what} of ${hi} or less`;
    return what;
  }
  if (s instanceof z.ZodEnum) return `one of ${(s.options as string[]).join(', ')}`;
  if (s instanceof z.ZodString) {
    if (s.format === 'url') return ACCEPTS.baseUrl!;
    const min = s.minLength ?? 0;
    const max = s.maxLength;
    return `${min > 0 ? 'a non-empty text' : 'a text'}${max !== null ? ` of at most ${max} characters` : ''}`;
  }
  return 'a valid value';
}

/**
 * The sentence for a bad setting value: `--port (PHYSPAY_PORT) must be a whole number from 0 to 65535
 * (got "abc")`, ending `from PHYSPAY_PORT` when the value came from the variable.
 */
export function settingProblem(key: SettingKey, value: unknown): string {
  const s: Setting = SETTINGS[key];
  const flag = s.flags.split(' ')[0];
  // a secret is never echoed, not even when it is malformed
  const got = value === undefined ? 'nothing' : SECRET_SETTINGS.has(key) && typeof value === 'string' ? `a value of ${value.length} characters, not shown` : JSON.stringify(value);
  const fromEnv = typeof value === 'string' && process.env[s.env] === value ? ` from ${s.env}` : '';
  return `${flag} (${s.env}) must be ${acceptedValues(key)} (got ${got}${fromEnv})`;
}

/** The config file read when neither --config nor PHYSPAY_CONFIG names one (only if it exists). */
export const DEFAULT_CONFIG_FILE = 'physpay.config.json';

const flagName = (key: SettingKey) => (SETTINGS[key] as Setting).flags.split(' ')[0]!.slice(2);

/** Config-file key (a setting's name or its flag spelling) -> setting name. `config` itself is not one. */
const CONFIG_KEYS = new Map<string, SettingKey>(
  (Object.keys(SETTINGS) as SettingKey[]).filter((k) => k !== 'config').flatMap((k) => [[k, k], [flagName(k), k]] as [string, SettingKey][]),
);

/** A config value is a JSON string or number, then checked against its setting's own schema. */
const ConfigValue = z.union([z.string(), z.number()]);
/** Settings whose value in the config file may also be a JSON object, turned into the text form. */
const OBJECT_VALUES: Partial<Record<SettingKey, (v: Record<string, unknown>) => string>> = { stripePrices: priceMapText };

/**
 * Read and check a config file. Returns setting name -> value (numbers as strings, like flag values).
 * Throws CliError (exit 2) naming the file and the key.
 */
export function readConfigFile(path: string): Partial<Record<SettingKey, string>> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`config file ${path} not found (--config, PHYSPAY_CONFIG)`, 2);
    throw new CliError(`cannot read config file ${path}: ${(err as Error).message}`, 2);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new CliError(`config file ${path} is not valid JSON (${(err as Error).message})`, 2);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new CliError(`config file ${path} must hold one JSON object of settings, e.g. {"db": "reports.db", "baseUrl": "https://physpay.example"}`, 2);
  }
  const out: Partial<Record<SettingKey, string>> = {};
  const from: Partial<Record<SettingKey, string>> = {};
  for (let [name, value] of Object.entries(raw)) { // eslint-disable-line prefer-const
    const key = CONFIG_KEYS.get(name);
    if (!key) {
      const known = [...CONFIG_KEYS.entries()].filter(([n, k]) => n === k).map(([n]) => n).join(', ');
      throw new CliError(`unknown key "${name}" in config file ${path}; a key is a setting's name (${known}) or its flag without the leading dashes (e.g. "base-url")`, 2);
    }
    if (from[key] !== undefined) throw new CliError(`key "${name}" in config file ${path} repeats "${from[key]}" (the same setting); give it once`, 2);
    from[key] = name;
    const asText = OBJECT_VALUES[key];
    if (asText && typeof value === 'object' && value !== null && !Array.isArray(value)) value = asText(value as Record<string, unknown>);
    if (!ConfigValue.safeParse(value).success) {
      throw new CliError(`bad value for "${name}" in config file ${path}: ${JSON.stringify(value)} is not a string or a number`, 2);
    }
    try {
      readSettings({ [key]: String(value) }, [key]); // the setting's own check, and its own wording
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      throw new CliError(`bad value for "${name}" in config file ${path}: ${err.message}`, 2);
    }
    out[key] = String(value);
  }
  return out;
}

/** The config file a run uses: --config / PHYSPAY_CONFIG, else physpay.config.json in the working directory if present. */
function configFor(program: Command): Partial<Record<SettingKey, string>> {
  const named = program.getOptionValue('config') as string | undefined;
  if (named !== undefined) {
    const s = SETTINGS.config.schema.safeParse(named);
    if (!s.success) throw new CliError(`bad value for --config (PHYSPAY_CONFIG): ${JSON.stringify(named)}: give the path of a JSON file`, 2);
    return readConfigFile(resolve(named));
  }
  const fallback = resolve(process.cwd(), DEFAULT_CONFIG_FILE);
  return existsSync(fallback) ? readConfigFile(fallback) : {};
}

/**
 * Give every command the global `--config <file>` option, and before a command parses its own flags,
 * set the options it takes from the config file (commander source `config`: a flag or a `PHYSPAY_*`
 * variable still wins). Call once, after every command is registered.
 */
export function useConfigFile(program: Command): void {
  program.addOption(option('config'));
  const install = (cmd: Command): void => {
    if (!cmd.commands.length) return;
    cmd.hook('preSubcommand', (_parent, sub) => {
      const values = configFor(program);
      for (const o of sub.options) {
        const key = o.attributeName() as SettingKey;
        const value = values[key];
        if (value !== undefined && key in SETTINGS) sub.setOptionValueWithSource(key, value, 'config');
      }
    });
    for (const sub of cmd.commands) install(sub);
  };
  install(program);
}

/** Whether a setting of a command was given by flag, variable or config file (not left at its default). */
export function givenExplicitly(cmd: Command, key: SettingKey): boolean {
  const source = cmd.getOptionValueSource(key);
  return source === 'cli' || source === 'env' || source === 'config';
}
