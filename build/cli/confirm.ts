/**
 * Confirming a change of many reports, one way for every command that removes or changes them in bulk:
 * --expect-count must match exactly (no question); --yes goes ahead; on a terminal the operator is asked;
 * otherwise the change is refused, naming both options. Every refusal is exit 2 and changes nothing.
 */
import { CliError, type CliIo } from './io.ts';

const fmt = (n: number) => n.toLocaleString('en-US');
export const reportsText = (n: number) => `${fmt(n)} ${n === 1 ? 'report' : 'reports'}`;

export function parseExpectCount(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(String(value))) throw new CliError(`--expect-count must be a whole number of 0 or more (got ${JSON.stringify(value)})`, 2);
  return Number(value);
}

export interface ConfirmRequest {
  /** "delete", "undo batch 7": what the refusal and the question say is about to happen. */
  verb: string;
  count: number;
  /**
   * Said before the count in the question and refusals, e.g. "batch 7 (reports.csv) would remove":
   * `Undo batch 7: batch 7 (reports.csv) would remove 5 reports? [y/N]`. Without it the count is what the
   * verb acts on: `Approve 5 reports? [y/N]`, `refusing to approve 5 reports without confirmation: ...`,
   * `--expect-count is 4 but 5 reports match`.
   */
  what?: string;
  /** Appended to the count, e.g. " (4,900 approved, 100 rejected)". */
  detail?: string;
  yes?: boolean;
  expectCount?: number;
}

export async function confirmCount(io: CliIo, r: ConfirmRequest): Promise<void> {
  const n = `${reportsText(r.count)}${r.detail ?? ''}`;
  if (r.expectCount !== undefined) {
    if (r.expectCount !== r.count) {
      const actual = r.what ? `${r.what} ${n}` : `${n} ${r.count === 1 ? 'matches' : 'match'}`;
      throw new CliError(`refusing to ${r.verb}: --expect-count is ${fmt(r.expectCount)} but ${actual}; nothing changed`, 2);
    }
    return;
  }
  if (r.yes) return;
  const verb = `${r.verb[0]!.toUpperCase()}${r.verb.slice(1)}`;
  if (io.confirm) {
    if (await io.confirm(r.what ? `${verb}: ${r.what} ${n}? [y/N] ` : `${verb} ${n}? [y/N] `)) return;
    throw new CliError('not confirmed; nothing changed', 2);
  }
  const advice = `pass --yes, or --expect-count ${r.count} to go ahead only if exactly ${fmt(r.count)} match`;
  throw new CliError(
    r.what
      ? `refusing to ${r.verb} without confirmation: ${r.what} ${n}; ${advice} (--dry-run shows what would change); nothing changed`
      : `refusing to ${r.verb} ${n} without confirmation: ${advice}; nothing changed`,
    2,
  );
}
