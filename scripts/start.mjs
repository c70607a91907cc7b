#!/usr/bin/env node
// `npm start`: the demo end to end (synthetic reports -> build -> serve). The port is checked before the
// demo and the build run (they take a while), so a taken port is said at once:
//   npm start                      # http://127.0.0.1:8080
//   PORT=8090 npm start            # or: npm start -- --port 8090
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startSteps } from './start-steps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const at = args.findIndex((a) => a === '--port' || a.startsWith('--port='));
const raw = at < 0 ? process.env.PORT ?? '8080' : args[at].includes('=') ? args[at].split('=')[1] : args[at + 1];
const port = Number(raw);
if (!/^\d+$/.test(String(raw)) || port < 1 || port > 65535) {
  console.error(`npm start: the port must be a number from 1 to 65535 (got "${raw}"); e.g. PORT=8090 npm start, or npm start -- --port 8090`);
  process.exit(2);
}

const free = await new Promise((resolve) => {
  const probe = createServer();
  probe.once('error', (err) => resolve(err.code === 'EADDRINUSE' ? 'in use' : err.message));
  probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
});
if (free !== true) {
  console.error(`npm start: port ${port} on 127.0.0.1 is ${free}: choose another, e.g. PORT=${port === 8090 ? 8091 : 8090} npm start (or npm start -- --port ${port === 8090 ? 8091 : 8090}); nothing was built`);
  process.exit(2);
}

const physpay = (...a) => {
  const r = spawnSync(process.execPath, [`${root}/bin/physpay.js`, ...a], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
for (const step of startSteps(port)) physpay(...step);
