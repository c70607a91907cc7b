/**
 * Run the physpay CLI in-process (build/cli/main.ts) with captured output and a fixed clock.
 */
import { main } from '../../build/cli/main.ts';
import type { CliIo } from '../../build/cli/io.ts';

export interface CliRun {
  code: number;
  out: string[];
  err: string[];
  /** the questions the CLI asked (only with `confirm`) */
  asked: string[];
}

export interface CliOptions {
  /** the CLI's clock: a fixed time (default 2026-01-15T12:00:00Z) or a clock to read */
  now?: Date | (() => Date);
  /** an operator at a terminal answering each question (default: no terminal to ask at) */
  confirm?: (question: string) => boolean | Promise<boolean>;
}

/** `physpay ...args`: exit code and the lines written to stdout and stderr. */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const asked: string[] = [];
  const { now = new Date('2026-01-15T12:00:00.000Z'), confirm } = options;
  const io: CliIo = {
    out: (line) => out.push(...line.split('\n')),
    err: (line) => err.push(...line.split('\n')),
    now: typeof now === 'function' ? now : () => now,
    isTty: false,
    ...(confirm ? { confirm: async (q: string) => (asked.push(q), confirm(q)) } : {}),
  };
  const code = await main(['node', 'physpay', ...args], io);
  return { code, out, err, asked };
}

/** The same, with stdout and stderr each as one string (lines joined by \n). */
export async function runCliText(args: string[], options: CliOptions = {}): Promise<{ code: number; out: string; err: string }> {
  const { code, out, err } = await runCli(args, options);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
