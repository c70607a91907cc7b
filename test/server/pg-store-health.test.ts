/**
 * The PostgreSQL store's own side of "fail closed" (the end-to-end checks are test/faults/pg-outage.test.ts
 * and test/server/pg-pool-exhaustion.test.ts): its pool and time bounds from the --service-db URL, which
 * failures are an outage (reported once, as the SQLite store does) and which are only a full pool (503,
 * not an outage).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PG_URL, pgSkipReason } from '../helpers/pg.ts';
import { PG_DEFAULTS, PostgresServiceStore, pgFailure, postgresSettings } from '../../server/store/postgres.ts';
import { StoreUnavailableError } from '../../server/store/types.ts';

const W = { minute: 1, day: 1 };
const LIMITS = { perMinute: 10, perDay: 10 };
const opened: PostgresServiceStore[] = [];

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

describe('pool and timeouts from the --service-db URL', () => {
  it('defaults: 10 connections, 3 s for a connection, statements 3 s, answers 5 s', () => {
    expect(postgresSettings('postgres://u@db/physpay')).toEqual({ poolMax: 10, connectTimeoutMs: 3_000, statementTimeoutMs: 3_000, queryTimeoutMs: 5_000 });
    expect(PG_DEFAULTS).toEqual(postgresSettings('postgres://u@db/physpay'));
  });

  it('named in the query: pool_max, connect_timeout in seconds (decimals allowed), statement_timeout and query_timeout in ms', () => {
    expect(postgresSettings('postgres://u:pw@db:5433/physpay?sslmode=disable&pool_max=3&connect_timeout=0.5&statement_timeout=800&query_timeout=1500'))
      .toEqual({ poolMax: 3, connectTimeoutMs: 500, statementTimeoutMs: 800, queryTimeoutMs: 1_500 });
    // the client waits 2 s longer than the server lets a statement run, unless told otherwise
    expect(postgresSettings('postgres://db/p?statement_timeout=10000').queryTimeoutMs).toBe(12_000);
    expect(postgresSettings('postgres://db/p?statement_timeout=0')).toMatchObject({ statementTimeoutMs: 0, queryTimeoutMs: 5_000 });
    expect(postgresSettings('postgres://db/p?query_timeout=0').queryTimeoutMs).toBe(0);
  });

  it('a bad value is refused with one sentence naming it', () => {
    expect(() => postgresSettings('postgres://db/p?pool_max=0')).toThrow(/^pool_max must be a whole number from 1 to 1000 \(got "0"\)$/);
    expect(() => postgresSettings('postgres://db/p?pool_max=2.5')).toThrow(/pool_max/);
    expect(() => postgresSettings('postgres://db/p?connect_timeout=abc')).toThrow(/^connect_timeout must be a number of seconds/);
    expect(() => postgresSettings('postgres://db/p?connect_timeout=')).toThrow(/connect_timeout/);
    expect(() => postgresSettings('postgres://db/p?statement_timeout=-1')).toThrow(/^statement_timeout must be/);
    // a client that gives up before the server cancels could see a count land for a request answered 503
    expect(() => postgresSettings('postgres://db/p?statement_timeout=5000&query_timeout=5000')).toThrow(/query_timeout \(5000 ms\) must be above statement_timeout \(5000 ms\)/);
    expect(() => new PostgresServiceStore('postgres://db/p?pool_max=-3')).toThrow(/pool_max/);
  });

  it('the settings reach the pool; pg gets them as numbers, not from the URL', () => {
    const store = new PostgresServiceStore('postgres://postgres@127.0.0.1:9/none?pool_max=4&connect_timeout=1.5&statement_timeout=0&query_timeout=0');
    opened.push(store);
    const o = (store.pool as unknown as { options: Record<string, unknown> }).options;
    expect(o.max).toBe(4);
    expect(o.connectionTimeoutMillis).toBe(1_500);
    expect(o.statement_timeout).toBeUndefined();
    expect(o.query_timeout).toBeUndefined();
    expect(String(o.connectionString)).toBe('postgres://postgres@127.0.0.1:9/none');
    // the pool size given by a caller (as tests do) wins over the URL
    const small = new PostgresServiceStore('postgres://postgres@127.0.0.1:9/none?pool_max=4', 2);
    opened.push(small);
    expect(small.settings.poolMax).toBe(2);
  });
});

describe('failures: an outage, a full pool, or a bug', () => {
  it('classifies pg errors', () => {
    const err = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});
    expect(pgFailure(err('timeout exceeded when trying to connect'))).toBe('busy');
    expect(pgFailure(err('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe('down');
    expect(pgFailure(err('Connection terminated due to connection timeout'))).toBe('down');
    expect(pgFailure(err('Query read timeout'))).toBe('down');
    expect(pgFailure(err('Connection terminated unexpectedly'))).toBe('down');
    expect(pgFailure(err('canceling statement due to statement timeout', '57014'))).toBe('down');
    expect(pgFailure(err('terminating connection due to administrator command', '57P01'))).toBe('down');
    expect(pgFailure(err('sorry, too many clients already', '53300'))).toBe('down');
    expect(pgFailure(err('could not extend file: No space left on device', '53100'))).toBe('down');
    expect(pgFailure(err('cannot execute INSERT in a read-only transaction', '25006'))).toBe('down');
    expect(pgFailure(err('syntax error at or near "SELEC"', '42601'))).toBeNull();
    expect(pgFailure(err('duplicate key value violates unique constraint', '23505'))).toBeNull();
  });

  it('connection refused: every step is StoreUnavailableError; the outage is reported once (steps and probe alike)', async () => {
    const faults: string[] = [];
    const store = new PostgresServiceStore('postgres://postgres@127.0.0.1:9/none', { poolMax: 2, events: { onFault: (m) => faults.push(m), onRecover: () => faults.push('recovered') } });
    opened.push(store);
    for (let i = 0; i < 3; i++) await expect(store.hitIp('10.0.0.1', W, LIMITS)).rejects.toThrow(StoreUnavailableError);
    await expect(store.findKeyByHash('x')).rejects.toThrow(StoreUnavailableError);
    await expect(store.probe()).rejects.toThrow(StoreUnavailableError);
    await expect(store.updateKey('1', { plan: 'starter' })).rejects.toThrow(StoreUnavailableError);
    expect(faults).toHaveLength(1);
    expect(faults[0]).toMatch(/^PostgreSQL 127\.0\.0\.1:9\/none: .*ECONNREFUSED/);
  });

  it('a full pool is 503 (StoreUnavailableError) within connect_timeout, and not an outage', async (ctx) => {
    const skip = await pgSkipReason('the PostgreSQL pool test');
    if (skip) {
      ctx.skip(skip);
      return;
    }
    const events: string[] = [];
    const store = await PostgresServiceStore.open(PG_URL, [], { poolMax: 1, connectTimeoutMs: 200, events: { onFault: (m) => events.push(m), onRecover: () => events.push('recovered') } });
    opened.push(store);
    const held = await store.pool.connect(); // the only connection
    try {
      const t = Date.now();
      const err = await store.findKeyByHash('none').then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect((err as Error).message).toMatch(/^service store busy: no free connection of 1 within 200 ms$/);
      expect(Date.now() - t).toBeLessThan(2_000);
      await expect(store.probe()).rejects.toThrow(/busy/);
    } finally {
      held.release();
    }
    expect(await store.findKeyByHash('none')).toBeNull();
    expect(events).toEqual([]);
  });
});
