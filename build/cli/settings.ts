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
