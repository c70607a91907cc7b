/**
 * Hardening II (issue 27): holes an attack pass found in the HTTP edges, each with the request that showed
 * it. (Page protections: test/pages/page-security.test.ts; PostgreSQL faults: test/faults/.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { API, call, createKey, qs, startKeyedServer, type KeyedServer } from '../keyed/harness.ts';
import { get } from '../helpers/http.ts';
import { redactSecrets } from '../../server/http/redact.ts';

const FAKE_KEY = `pcb_live_${'AbCd3fGh1jKlMn0pQrStUvWxYz012345'}`;
let k: KeyedServer;
let key: string;

beforeAll(async () => {
  k = await startKeyedServer({ now: '2026-11-20T10:00:00Z', prefix: 'hardening2' });
  key = (await createKey(k.server.store, 'enterprise')).key;
}, 120_000);
afterAll(async () => {
  await k?.server.close();
  if (k) rmSync(k.work, { recursive: true, force: true });
});

describe('secrets are never echoed (item 6)', () => {
  it('redactSecrets removes key-shaped values and PostgreSQL passwords, and nothing else', () => {
    expect(redactSecrets(`unknown specialty "${FAKE_KEY}"`)).toBe('unknown specialty "pcb_live_[redacted]"');
    expect(redactSecrets('postgres://app:s3cr3t@db.internal:5432/physpay')).toBe('postgres://app:[redacted]@db.internal:5432/physpay');
    expect(redactSecrets('postgresql://db/physpay?user=app&password=hunter2&sslmode=require')).toBe('postgresql://db/physpay?user=app&password=[redacted]&sslmode=require');
    expect(redactSecrets('unknown specialty "cardiolgy"')).toBe('unknown specialty "cardiolgy"');
  });

  it('a key-shaped value passed as a parameter is not echoed in the keyed 400/404 body', async () => {
    for (const path of [
      `${API}/benchmarks?${qs({ specialty: FAKE_KEY })}`,
      `${API}/available-data?${qs({ specialty: 'Cardiology', state: FAKE_KEY })}`,
      `${API}/benchmarks?${qs({ specialty: 'Cardiology', practice_setting: FAKE_KEY })}`,
      `${API}/benchmarks?${qs({ specialty: 'Cardiology', [FAKE_KEY]: '1' })}`,
    ]) {
      const r = await call(k.url, path, key);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.text, path).not.toContain(FAKE_KEY.slice(9));
      expect(r.json<{ error: string }>().error).toMatch(/\S/);
    }
  });

  it('nor in the open data 404, nor in a tool error', async () => {
    const r = await get(k.url, `/data/api/v1/specialties/${FAKE_KEY}.json`);
    expect(r.status).toBe(404);
    expect(r.text).not.toContain(FAKE_KEY.slice(9));
    const mcp = await fetch(`${k.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_specialty_pay', arguments: { specialty: FAKE_KEY } } }),
    });
    const text = await mcp.text();
    expect(text).toMatch(/not found|unknown|no specialty/i);
    expect(text).not.toContain(FAKE_KEY.slice(9));
  });

  it('serve\'s start-up error names the store without its password (user-info or query string)', () => {
    const bin = join(import.meta.dirname, '../../bin/physpay.js');
    for (const target of ['postgres://physpay:userinfo-secret@127.0.0.1:1/physpay', 'postgres://127.0.0.1:1/physpay?user=physpay&password=query-secret']) {
      const r = spawnSync(process.execPath, [bin, 'serve', '--data', k.buildDir, '--service-db', target, '--port', '0'], { encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).not.toBe(0);
      expect(r.stderr).toMatch(/service store/);
      expect(r.stderr + r.stdout).not.toMatch(/userinfo-secret|query-secret/);
    }
  }, 120_000);
});
