#!/usr/bin/env node
// Entry point of the `physpay` CLI (`npx physpay` from a checkout). The sources are TypeScript run
// through tsx's loader, so there is no separate compile step.
import { register } from 'tsx/esm/api';

// A closed pipe (`physpay keys list | head -1`) is the reader's choice, not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

register();
const { main } = await import('../build/cli/main.ts');
process.exitCode = await main(process.argv);
