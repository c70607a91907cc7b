/**
 * Run the physpay CLI in-process (build/cli/main.ts) with captured output and a fixed clock.
 */
import { main } from '../../build/cli/main.ts';
import type { CliIo } from '../../build/cli/io.ts';

export interface CliRun {
  code: number;
  out: string[];
  err: string[];
}

/** `physpay ...args`: exit code and the lines written to stdout and stderr. */
export async function runCli(args: string[], options: { now?: Date } = {}): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const now = options.now ?? new Date('2026-01-15T12:00:00.000Z');
  const io: CliIo = {
    out: (line) => out.push(...line.split('\n')),
    err: (line) => err.push(...line.split('\n')),
    now: () => now,
    isTty: false,
  };
  const code = await main(['node', 'physpay', ...args], io);
  return { code, out, err };
}
