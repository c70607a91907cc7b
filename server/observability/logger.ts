/**
 * JSON logs (pino): one line per request with its id, interface, route, status and latency, plus
 * server events. API keys are never logged: no header is logged, and the path is logged without its
 * query string (a query never holds a key, but it is the caller's data).
 */
import { redactSecrets } from '../http/redact.ts';
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level = process.env.PHYSPAY_LOG_LEVEL ?? 'info', destination: pino.DestinationStream = pino.destination({ dest: 2, sync: false })): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['key', 'apiKey', 'headers["x-api-key"]', '*.headers["x-api-key"]', 'headers.authorization', '*.headers.authorization'], censor: '[redacted]' },
    },
    destination,
  );
}

/**
 * Process warnings (process.emitWarning: the handlers' own reports of unexpected errors, Node's deprecations)
 * as JSON log lines like everything else, instead of Node's multi-line "(node:PID) Warning:" text on stderr.
 * Replaces Node's default printer; returns a function that restores it.
 */
export function logWarningsAsJson(logger: Pick<Logger, 'warn'>): () => void {
  const previous = process.listeners('warning');
  process.removeAllListeners('warning');
  const onWarning = (w: Error & { code?: string }) => logger.warn({ warning: w.name, code: w.code, detail: redactSecrets(w.message) }, redactSecrets(w.message.split('\n')[0]!.slice(0, 300)));
  process.on('warning', onWarning);
  return () => {
    process.off('warning', onWarning);
    for (const l of previous) process.on('warning', l as (w: Error) => void);
  };
}
