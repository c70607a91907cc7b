/** Where CLI commands write. Tests pass their own to capture output. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  now(): Date;
  /** stderr is a terminal: progress (written to stderr) may redraw one line there */
  isTty: boolean;
  /** Ask a yes/no question at the terminal (default no). Absent when nobody can answer (no TTY). */
  confirm?(question: string): Promise<boolean>;
}

export const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  now: () => new Date(),
  // progress goes to stderr: `physpay build > out.log` at a terminal still shows it, `2> err.log` gets none
  isTty: Boolean(process.stderr.isTTY),
  // The question goes to stderr, so stdout can still be piped; only asked when stdin is a terminal.
  ...(process.stdin.isTTY ? { confirm: askOnTerminal } : {}),
};

async function askOnTerminal(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await new Promise<boolean>((resolve) => {
      rl.once('close', () => resolve(false)); // end of input (Ctrl-D) is a no
      rl.question(question).then((answer) => resolve(/^y(es)?$/i.test(answer.trim())), () => resolve(false));
    });
  } finally {
    rl.close();
  }
}

/** An error whose message is meant for the operator as is (no stack trace). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
