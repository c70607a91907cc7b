/**
 * The keyed benchmark API (A) at /api/v1, as an Express router. Pipeline per endpoint:
 *   request id -> key (401) -> [subscription (403) -> build (503) -> quota check-and-count (429)] -> handler
 * /me/usage skips the bracket (never counted). The error handler at the end is the one place that turns
 * errors into `{"error": "..."}` responses with their status.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { KeyedError } from './errors.ts';
import { locals } from './context.ts';
import { authenticate, authenticateAndCount, readUsage, requestId, wrap, type KeyedDeps } from './middleware.ts';
import { specialtiesRoute } from './routes/specialties.ts';
import { availableDataRoute } from './routes/available-data.ts';
import { benchmarksRoute } from './routes/benchmarks.ts';
import { usageRoute } from './routes/usage.ts';
import { StoreUnavailableError } from '../store/types.ts';
import { keyedOpenApi } from '../../build/contract/openapi.ts';

export function createKeyedRouter(deps: KeyedDeps): express.Router {
  const r = express.Router();
  r.use(requestId);
  r.use((_req, res, next) => {
    res.setHeader('Vary', 'X-API-Key');
    next();
  });
  const openapi = JSON.stringify(keyedOpenApi());
  r.get('/openapi.json', (_req, res) => {
    res.set({ 'Cache-Control': 'public, max-age=3600', 'Access-Control-Allow-Origin': '*' }).type('application/json').send(openapi);
  });
  const counted = authenticateAndCount(deps);
  r.get('/specialties', counted, wrap(specialtiesRoute));
  r.get('/available-data', counted, wrap(availableDataRoute));
  r.get('/benchmarks', counted, wrap(benchmarksRoute));
  r.get('/me/usage', authenticate(deps), readUsage(deps), wrap(usageRoute));
  // Fallback for every other path. A plain `use` (no path parameter): a `/{*rest}` route would make the
  // router percent-decode the path first, and a bad escape (`/api/v1/%zz`) would then fail as a 500.
  r.use((req, _res, next) => {
    next(new KeyedError(req.method === 'GET' || req.method === 'HEAD' ? 'not_found' : 'bad_request',
      req.method === 'GET' || req.method === 'HEAD' ? `no such endpoint: ${req.path.slice(0, 100)}` : `method ${req.method} not allowed: the keyed API is read-only (GET)`));
  });
  r.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    let e: KeyedError;
    if (err instanceof KeyedError) e = err;
    else if (err instanceof StoreUnavailableError || (err as { code?: string }).code === 'SQLITE_BUSY') e = new KeyedError('unavailable', 'service temporarily unavailable; retry after a brief delay', { 'Retry-After': 2 });
    else {
      e = new KeyedError('internal', 'internal error');
      process.emitWarning(`keyed API (request ${locals(res).requestId}): ${(err as Error).stack ?? String(err)}`);
    }
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
    res.setHeader('Cache-Control', 'no-store');
    res.status(e.status).json({ error: e.message });
  });
  return r;
}
