/** Where CLI commands write. Tests pass their own to capture output. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  now(): Date;
  isTty: boolean;
}

export const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  now: () => new Date(),
  isTty: Boolean(process.stdout.isTTY),
};

/** An error whose message is meant for the operator as is (no stack trace). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
