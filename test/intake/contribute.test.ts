/**
 * POST /contribute over real HTTP (injected clock; each test its own client through a trusted proxy hop):
 * the form without JavaScript (signed token, minimum fill time) and the JSON endpoint with a solved
 * proof-of-work challenge are stored as pending intake with their signals; every refusal has its status and
 * a clear message: challenge missing, wrong or expired; token missing, forged, too fast or expired; the
 * honeypot; invalid values field by field; the 6th submission of a client's day; a repeat by the same client;
 * body size and type. The same report from another client is accepted like any (nothing leaks), and noted
 * for the moderator.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { goldenBuildIn, makeGoldenDb } from '../helpers/golden-build.ts';
import { runCliText } from '../helpers/cli.ts';
import { request } from '../helpers/http.ts';
import { closeAfterAll, startTestServer } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import type { RunningServer } from '../../server/main.ts';
import { formIn, openForm, postForm, postJson, REPORT, solve, solveWithAltcha } from './harness.ts';
import { IntakeChallenge, IntakeError, IntakeReceived } from '../../build/contract/intake.ts';

const later = closeAfterAll();
const REPEAT = 'You have already sent this report; it was received and is kept once.';
const tmp = useTempDir('contribute');
let now = new Date('2026-11-20T12:00:00Z');
let s: RunningServer;
let ipNo = 0;
let dist: string;
const nextIp = () => `203.0.113.${++ipNo}`;
const wait = (seconds: number) => void (now = new Date(now.getTime() + seconds * 1000));
const pending = async () => s.store.pendingSubmissions(1000);

beforeAll(async () => {
  dist = goldenBuildIn(tmp.path, join(tmp.path, 'dist')).dist;
  s = later(await startTestServer(dist, join(tmp.path, 'service.db'), { clock: () => now, trustProxy: 1 }));
}, 60_000);

describe('GET /contribute', () => {
  it('the form: every field, a signed token, an HttpOnly SameSite=Strict cookie, a challenge; no-store; its own script only', async () => {
    const f = await openForm(s.url, nextIp());
    expect(f.page.status).toBe(200);
    expect(f.page.headers['cache-control']).toBe('no-store');
    expect(String(f.page.headers['set-cookie'])).toMatch(/^physpay_form=[A-Za-z0-9_-]{24}; Path=\/contribute; Max-Age=7200; HttpOnly; SameSite=Strict$/);
    for (const name of Object.keys(REPORT)) expect(f.page.text).toContain(`name="${name}"`);
    expect(f.page.text).toContain('name="website"'); // the honeypot, hidden from people
    expect(f.challenge).toMatchObject({ algorithm: 'SHA-256', maxnumber: 100000 });
    expect(String(f.page.headers['content-security-policy'])).toMatch(/script-src 'sha256-/);
    expect(f.page.text).not.toMatch(/<script[^>]+src=|https?:\/\/(?!physpay\.example|creativecommons\.org)[a-z]/i);
    const ch = await request(s.url, '/contribute/challenge');
    expect([ch.status, ch.headers['cache-control']]).toEqual([200, 'no-store']);
    expect(IntakeChallenge.parse(ch.json())).toMatchObject({ algorithm: 'SHA-256', salt: expect.stringContaining('expires=') });
    // the states are listed by name, as everywhere on the site (not by postal code)
    const names = [...f.page.text.split('<select id="f-state"')[1]!.split('</select>')[0]!.matchAll(/<option value="[A-Z]{2}"[^>]*>([^<]+)</g)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(2);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });
});

describe('accepted', () => {
  it('the form without JavaScript after a few seconds: 201, where the pay falls, stored with its signals', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    wait(12);
    const r = await postForm(s.url, ip, f, REPORT);
    expect(r.status, r.text.slice(0, 500)).toBe(201);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.text).toContain('your report was received');
    expect(r.text).toMatch(/Family Medicine in Texas: a total compensation of \$285,000 falls (at about the \d+(\.\d)?(st|nd|rd|th) percentile|below P10|above P90)/);
    expect(r.text).toContain('next nightly build');
    // the pay check is written for people: no tool-style "NOTE:" or "Cite:" line; the demo data is said in words
    const check = /<p id="pay-check">([^<]*)<\/p>/.exec(r.text)![1]!;
    expect(check).not.toMatch(/NOTE:|Cite:|Licensed under|\d\.\d(st|nd|rd|th)/); // a whole percentile: "the 50th", not "the 50.2nd"
    expect(r.text).toContain('<p id="synthetic-note">These figures are synthetic demo data, not real physicians&#39; reports.</p>');
    const p = (await pending()).find((x) => x.report.total_compensation === 285000 && x.signals.challenge === 'form')!;
    expect(p.report).toEqual({ specialty: 'Family Medicine', state: 'TX', year: 2025, total_compensation: 285000, base_salary: 250000, bonus: 35000, hours_per_week: 50, years_in_practice: 8, practice_setting: 'Hospital Employed', employment_type: 'Full-Time (W-2)', wrvus: null });
    expect(p.signals).toEqual({ challenge: 'form', seconds_to_submit: 12, client_submissions_today: 1, same_report_elsewhere: 0 });
  });

  it('amounts written with k or m, as the pages\' pay box takes them (300k, $1.2m), are read as dollars', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    wait(4);
    const r = await postForm(s.url, ip, f, { ...REPORT, total_compensation: '$1.2m', base_salary: '1,100k', bonus: '100K', signing_bonus: '25k' });
    expect(r.status, r.text.slice(0, 300)).toBe(201);
    const p = (await pending()).find((x) => x.report.total_compensation === 1_200_000)!;
    expect([p.report.base_salary, p.report.bonus, p.report.signing_bonus]).toEqual([1_100_000, 100_000, 25_000]);
  });

  it('JSON with a solved challenge: 201 with the pay check; the same report from another client is accepted alike and noted', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    // solved by altcha-lib's own solver here (the widget's); by the harness's faster loop elsewhere
    const body = { ...REPORT, specialty: 'cardiology', state: 'California', total_compensation: 520000, base_salary: '', bonus: '', altcha: await solveWithAltcha(f.challenge) };
    const r = await postJson(s.url, ip, body);
    expect(r.status, r.text).toBe(201);
    expect(IntakeReceived.parse(r.json())).toMatchObject({ status: 'received', pay_check: { specialty: { name: 'Cardiology' }, compensation: 520000 } });
    const other = nextIp();
    const g = await openForm(s.url, other);
    const again = await postJson(s.url, other, { ...body, altcha: await solve(g.challenge) });
    expect(again.status).toBe(201);
    expect(again.json()).toEqual(r.json()); // the sender learns nothing about earlier reports
    const both = (await pending()).filter((x) => x.report.total_compensation === 520000).sort((a, b) => a.signals.same_report_elsewhere - b.signals.same_report_elsewhere);
    expect(both.map((x) => [x.report.state, x.signals.challenge, x.signals.same_report_elsewhere])).toEqual([['CA', 'pow', 0], ['CA', 'pow', 1]]);
  });
});

describe('without JavaScript: a site-wide daily budget', () => {
  it('reports without a proof of work stop at the budget for every client (429, the answers kept), reports with one are still taken, and the next day it opens again', async () => {
    const small = later(await startTestServer(dist, join(tmp.path, 'service-budget.db'), { clock: () => now, trustProxy: 1, intakeWithoutJsPerDay: 2 }));
    const send = async (total: number) => {
      const ip = nextIp();
      const f = await openForm(small.url, ip);
      wait(5);
      return postForm(small.url, ip, f, { ...REPORT, total_compensation: String(total), base_salary: '', bonus: '' });
    };
    expect((await send(281_000)).status).toBe(201);
    expect((await send(282_000)).status).toBe(201);
    const third = await send(283_000);
    expect(third.status).toBe(429);
    expect(third.text).toContain('reports without JavaScript');
    expect(third.text).toContain('value="283000"');
    const ip = nextIp();
    const f = await openForm(small.url, ip);
    expect((await postJson(small.url, ip, { ...REPORT, total_compensation: 284_000, base_salary: '', bonus: '', altcha: await solve(f.challenge) })).status).toBe(201);
    wait(86_400);
    expect((await send(285_500)).status).toBe(201);
    expect((await small.store.pendingSubmissions(100)).map((p) => [p.report.total_compensation, p.signals.challenge])).toEqual([[281_000, 'form'], [282_000, 'form'], [284_000, 'pow'], [285_500, 'form']]);
  });
});

describe('refused', () => {
  it('challenge: missing (JSON), wrong number, expired', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    const missing = await postJson(s.url, ip, REPORT);
    expect([missing.status, missing.json().error]).toEqual([400, expect.stringMatching(/^altcha is required/)]);
    const wrong = await postJson(s.url, ip, { ...REPORT, altcha: await solve(f.challenge, true) });
    expect([wrong.status, wrong.json().error]).toEqual([403, expect.stringMatching(/anti-abuse check failed/)]);
    const payload = await solve(f.challenge);
    wait(31 * 60);
    const expired = await postJson(s.url, ip, { ...REPORT, altcha: payload });
    expect(expired.status).toBe(403);
    expect((await pending()).some((p) => p.report.state === 'TX' && p.received_at >= now.toISOString())).toBe(false);
  });

  it('form token: missing cookie, forged, too fast, expired: 403 and a fresh form with the answers kept', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    const g = await openForm(s.url, ip);
    wait(5);
    const noCookie = await postForm(s.url, ip, { cookie: 'other=1', token: f.token }, REPORT);
    expect(noCookie.status).toBe(403);
    expect(noCookie.text).toContain('was not opened on this site');
    expect(noCookie.text).toContain('value="285,000"'); // the answers are kept
    expect(noCookie.text).toContain('name="form_token"');
    expect((await postForm(s.url, ip, { cookie: f.cookie, token: g.token }, REPORT)).status).toBe(403); // another page's token
    expect((await postForm(s.url, ip, { cookie: f.cookie, token: `${f.token.slice(0, -2)}AA` }, REPORT)).status).toBe(403);
    const h = await openForm(s.url, ip);
    const fast = await postForm(s.url, ip, h, REPORT);
    expect(fast.status).toBe(403);
    expect(fast.text).toContain('sent too quickly');
    wait(2 * 3600 + 1);
    expect((await postForm(s.url, ip, f, REPORT)).status).toBe(403);
  });

  it('a correction sent at once after a refused answer is taken: the wait counts from when the form was first opened', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    wait(5);
    const wrong = await postForm(s.url, ip, f, { ...REPORT, total_compensation: '1.288.000', base_salary: '', bonus: '' });
    expect(wrong.status).toBe(422);
    const fixed = await postForm(s.url, ip, formIn(wrong), { ...REPORT, total_compensation: '288,000', base_salary: '', bonus: '' });
    expect(fixed.status, fixed.text.slice(0, 300)).toBe(201);
    // no way round the wait: a form sent too fast comes back still counting from its first opening
    const g = await openForm(s.url, ip);
    wait(1);
    const early = await postForm(s.url, ip, g, { ...REPORT, total_compensation: '289,000', base_salary: '', bonus: '' });
    expect([early.status, early.text.includes('sent too quickly')]).toEqual([403, true]);
    const again = await postForm(s.url, ip, formIn(early), { ...REPORT, total_compensation: '289,000', base_salary: '', bonus: '' });
    expect([again.status, again.text.includes('sent too quickly')]).toEqual([403, true]);
    wait(2);
    expect((await postForm(s.url, ip, formIn(again), { ...REPORT, total_compensation: '289,000', base_salary: '', bonus: '' })).status).toBe(201);
  });

  it('a form token is spent by its one report, and only the address that opened the form can send it', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    wait(5);
    const report = (total: string) => ({ ...REPORT, total_compensation: total, base_salary: '', bonus: '' });
    const elsewhere = await Promise.all([nextIp(), nextIp()].map((other) => postForm(s.url, other, f, report('287,000'))));
    expect(elsewhere.map((r) => r.status)).toEqual([403, 403]);
    expect(elsewhere[0]!.text).toContain('opened from another connection');
    expect((await postForm(s.url, ip, f, report('286,000'))).status).toBe(201);
    const again = await postForm(s.url, ip, f, report('286,001'));
    expect(again.status).toBe(403);
    expect(again.text).toContain('already used for a report');
    expect(again.text).toContain('value="286,001"'); // the answers come back with a fresh form
    expect((await pending()).filter((p) => [286_000, 286_001, 287_000].includes(p.report.total_compensation)).map((p) => p.report.total_compensation)).toEqual([286_000]);
  });

  it('a solved challenge is spent by the report it carried: reusing it (any client) is 403', async () => {
    const ip = nextIp();
    const altcha = await solve((await request(s.url, '/contribute/challenge')).json());
    expect((await postJson(s.url, ip, { ...REPORT, total_compensation: 199_000, base_salary: '', bonus: '', altcha })).status).toBe(201);
    const again = await postJson(s.url, nextIp(), { ...REPORT, total_compensation: 199_001, base_salary: '', bonus: '', altcha });
    expect([again.status, again.json().error]).toEqual([403, expect.stringMatching(/already used/)]);
  });

  it('the honeypot: 400, nothing stored', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    wait(5);
    const before = (await pending()).length;
    const r = await postForm(s.url, ip, f, { ...REPORT, website: 'http://spam.example' });
    expect(r.status).toBe(400);
    expect(r.text).toContain('This submission was not accepted.');
    expect((await pending()).length).toBe(before);
  });

  it('invalid values: 422 with the importer\'s message by each field (form and JSON)', async () => {
    const ip = nextIp();
    const f = await openForm(s.url, ip);
    wait(5);
    const bad = { ...REPORT, specialty: 'Cardiolgy', state: 'Texsa', year: '2031', total_compensation: '1.350.000', hours_per_week: '400', practice_setting: 'Hospital' };
    const r = await postForm(s.url, ip, f, bad);
    expect(r.status).toBe(422);
    expect(r.text).toContain('6 answers need a change');
    expect(r.text).toMatch(/id="f-specialty-error">Specialty &quot;Cardiolgy&quot; is not a specialty we know; did you mean Cardiology/);
    expect(r.text).toContain('id="f-total_compensation-error"');
    expect(r.text).toContain('uses a point to separate thousands');
    expect(r.text).toMatch(/aria-invalid="true"/);
    const j = await postJson(s.url, ip, { ...bad, altcha: await solve(f.challenge) });
    expect(j.status).toBe(422);
    IntakeError.parse(j.json()); // the documented error shape
    expect(Object.keys(j.json<{ fields: object }>().fields).sort()).toEqual(['hours_per_week', 'practice_setting', 'specialty', 'state', 'total_compensation', 'year']);
    const parts = await postJson(s.url, ip, { ...REPORT, base_salary: '300000', altcha: await solve(f.challenge) });
    expect(parts.json().fields).toEqual({ base_salary: expect.stringContaining('add up to more than the total') });
  });

  it('a client\'s 6th report of the day: 429; a repeat of its own report: 409; the next day it may send again', async () => {
    const ip = nextIp();
    const send = async (total: number) => postJson(s.url, ip, { ...REPORT, total_compensation: total, altcha: await solve((await request(s.url, '/contribute/challenge')).json()) });
    for (let i = 0; i < 5; i++) expect((await send(300_000 + i)).status).toBe(201);
    const sixth = await send(400_000);
    expect([sixth.status, IntakeError.parse(sixth.json()).error]).toEqual([429, expect.stringMatching(/5 reports today/)]);
    const repeat = await send(300_000);
    expect([repeat.status, repeat.json().error]).toEqual([409, REPEAT]);
    wait(86_400);
    expect((await send(400_000)).status).toBe(201);
  }, 120_000); // eight proofs of work (up to 100,000 hashes each): about 10 s, over 30 s on a loaded 2-core machine

  it('body and method: 413 over 16 kB, 415 other types, 400 not an object, 405 other methods', async () => {
    const ip = nextIp();
    const big = await request(s.url, '/contribute', { method: 'POST', body: JSON.stringify({ x: 'a'.repeat(20_000) }), headers: { 'content-type': 'application/json', 'x-forwarded-for': ip } });
    expect(big.status).toBe(413);
    const text = await request(s.url, '/contribute', { method: 'POST', body: 'hello', headers: { 'content-type': 'text/plain', 'x-forwarded-for': ip } });
    expect(text.status).toBe(415);
    expect((await postJson(s.url, ip, [1, 2])).status).toBe(400);
    const put = await request(s.url, '/contribute', { method: 'PUT' });
    expect([put.status, put.headers.allow]).toEqual([405, 'GET, HEAD, POST']);
  });
});

describe('a repeat after the nightly import', () => {
  it('is still refused (409, nothing stored): the import does not make the client forget what it sent', async () => {
    const ip = nextIp();
    const send = async () => postJson(s.url, ip, { ...REPORT, total_compensation: '612,345', altcha: await solve((await request(s.url, '/contribute/challenge')).json()) });
    expect((await send()).status).toBe(201);
    const db = makeGoldenDb(mkdtempSync(join(tmp.path, 'nightly-')));
    const imported = await runCliText(['import', 'submissions', '--db', db, '--service-db', join(tmp.path, 'service.db')]);
    expect(imported.code, imported.err).toBe(0);
    expect(imported.out).toMatch(/^imported \d+ submissions? as pending reports/);
    wait(86_400);
    const again = await send();
    expect([again.status, again.json().error]).toEqual([409, REPEAT]);
    expect((await pending()).filter((x) => x.report.total_compensation === 612_345)).toEqual([]);
  }, 60_000);
});
