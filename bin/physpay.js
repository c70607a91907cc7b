#!/usr/bin/env node
// Entry point of the `physpay` CLI (`npx physpay` from a checkout). The sources are TypeScript run
// through tsx's loader, so there is no separate compile step.
import { register } from 'tsx/esm/api';

// A closed pipe (`physpay keys list | head -1`) is the reader's choice, not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

// `physpay serve` stops gracefully on SIGTERM or SIGINT from the process's first moment: a signal that
// arrives while the CLI's code is still loading is recorded here, and the serve command acts on it as soon
// as it runs (build/cli/commands/serve.ts), instead of the process dying at once.
if (process.argv[2] === 'serve') {
  for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => { globalThis[Symbol.for('physpay.earlyStopSignal')] ??= signal; });
}

register();
const { main } = await import('../build/cli/main.ts');
process.exitCode = await main(process.argv);
