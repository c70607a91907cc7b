#!/usr/bin/env node
// Entry point of the `physpay` CLI (`npx physpay` from a checkout). The sources are TypeScript run
// through tsx's loader, so there is no separate compile step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../build/cli/main.ts');
process.exitCode = await main(process.argv);
