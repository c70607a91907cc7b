/**
 * JSON logs (pino): one line per request with its id, interface, route, status and latency, plus
 * server events. API keys are never logged: no header is logged, and the path is logged without its
 * query string (a query never holds a key, but it is the caller's data).
 */
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level = process.env.PHYSPAY_LOG_LEVEL ?? 'info', destination: pino.DestinationStream = pino.destination({ dest: 2, sync: false })): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['key', 'apiKey', 'headers["x-api-key"]', '*.headers["x-api-key"]'], censor: '[redacted]' },
    },
    destination,
  );
}
