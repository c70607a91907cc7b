/**
 * The `physpay` CLI (commander). Each command group registers itself from build/cli/commands/.
 * `main` returns the exit code instead of exiting, so tests can run commands in-process.
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { ZodError } from 'zod';
import { processIo, CliError, type CliIo } from './io.ts';
import { ConfigError, SETTINGS, useConfigFile } from './settings.ts';
import { checkServiceDbLocation } from './service-db-location.ts';
import { DbError } from '../db/open.ts';
import { FilterError, ModerationError } from '../db/moderation.ts';
import { DemoError } from '../demo/create.ts';
import { registerDbCommands } from './commands/db.ts';
import { registerImportCommands } from './commands/import.ts';
import { registerModerateCommands } from './commands/moderate.ts';
import { registerDemoCommand } from './commands/demo.ts';
import { registerBuildCommands } from './commands/build.ts';
import { registerServeCommand } from './commands/serve.ts';
import { registerKeysCommands } from './commands/keys.ts';
import { registerBillingCommands } from './commands/billing.ts';
import { registerBackupCommand } from './commands/backup.ts';
import { registerExportCommand } from './commands/export.ts';
import { registerReferenceCommand } from './commands/reference.ts';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** commander's "required option '--db <path>' not specified" also names the variable that can set it. */
function withVariable(message: string): string {
  return message.replace(/(required option '(--[\w-]+)[^']*' not specified)/, (all, _m: string, flag: string) => {
    const s = Object.values(SETTINGS).find((x) => x.flags.split(' ')[0] === flag);
    return s ? `${all} (or set ${s.env})` : all;
  });
}

export function createProgram(io: CliIo): Command {
  const program = new Command('physpay')
    .description('physpay: physician compensation benchmarks. Import and moderate reports, build the published data, serve the APIs.')
    .version(VERSION, '-V, --version', 'print the physpay version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => io.out(s.replace(/\n$/, '')),
      writeErr: (s) => io.err(s.replace(/\n$/, '')),
      outputError: (s, write) => write(withVariable(s)),
    })
    .exitOverride();
  registerDbCommands(program, io);
  registerImportCommands(program, io);
  registerModerateCommands(program, io);
  registerDemoCommand(program, io);
  registerBuildCommands(program, io);
  registerServeCommand(program, io);
  registerKeysCommands(program, io);
  registerBillingCommands(program, io);
  registerBackupCommand(program, io);
  registerExportCommand(program, io);
  registerReferenceCommand(program, io);
  useConfigFile(program); // --config and physpay.config.json, for every command
  checkServiceDbLocation(program); // a service DB left in dist-data/ by an older install is refused, not replaced by an empty one
  for (const cmd of program.commands) {
    cmd.exitOverride().configureOutput(program.configureOutput());
    for (const sub of cmd.commands) sub.exitOverride().configureOutput(program.configureOutput());
  }
  return program;
}

/** Known operator errors: printed as one line, no stack. */
const OPERATOR_ERRORS = [CliError, ConfigError, DbError, ModerationError, DemoError];
/** Those of them that are usage or validation errors (exit 2; a CliError carries its own code). */
const USAGE_ERRORS = [ConfigError, FilterError, DemoError];

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (OPERATOR_ERRORS.some((E) => err instanceof E)) {
      if ((err as Error).message) io.err(`physpay: ${(err as Error).message}`); // a CliError without a message: its exit code only
      return err instanceof CliError ? err.exitCode : USAGE_ERRORS.some((E) => err instanceof E) ? 2 : 1;
    }
    if (err instanceof ZodError) {
      io.err(`physpay: invalid input: ${err.issues.map((i) => i.message).join('; ')}`);
      return 1;
    }
    io.err(`physpay: unexpected error: ${(err as Error).stack ?? String(err)}`);
    return 1;
  }
}
