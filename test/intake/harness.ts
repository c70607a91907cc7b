/**
 * Shared set-up of the /contribute tests: the golden build served with an injected clock and a trusted proxy
 * hop (so each test can be its own client through X-Forwarded-For), and the steps of a browser: open the
 * form (cookie and token), solve the challenge, post the form or the JSON.
 */
import { createHash } from 'node:crypto';
import { solveChallenge } from 'altcha-lib/v1';
import { request, type HttpResponse } from '../helpers/http.ts';

export interface OpenedForm {
  cookie: string;
  token: string;
  challenge: { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
  page: HttpResponse;
}

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'");

export async function openForm(url: string, ip: string): Promise<OpenedForm> {
  return formIn(await request(url, '/contribute', { headers: { 'x-forwarded-for': ip, accept: 'text/html' } }));
}

/** The form of a page the server answered with (the form page, or a refusal that gives the form back). */
export function formIn(page: HttpResponse): OpenedForm {
  const cookie = /^(physpay_form=[^;]+)/.exec(String(page.headers['set-cookie']))![1]!;
  const token = /name="form_token" value="([^"]+)"/.exec(page.text)![1]!;
  const challenge = JSON.parse(decode(/data-challenge="([^"]+)"/.exec(page.text)![1]!));
  return { cookie, token, challenge, page };
}

/**
 * The number that solves a challenge: SHA-256(salt + number) = challenge, found by trying 0, 1, 2, ... as the
 * browser does. Synchronous node:crypto takes milliseconds where altcha-lib's solver (Web Crypto, one await per
 * try) takes a second or more on a busy machine; `solveWithAltcha` keeps one test on altcha-lib's own solver.
 */
function findNumber(challenge: OpenedForm['challenge']): number {
  if (challenge.algorithm !== 'SHA-256') throw new Error(`unexpected challenge algorithm ${challenge.algorithm}`);
  for (let n = 0; n <= challenge.maxnumber; n++) {
    if (createHash('sha256').update(challenge.salt + n).digest('hex') === challenge.challenge) return n;
  }
  throw new Error('challenge has no solution up to its maxnumber');
}

const payload = (challenge: OpenedForm['challenge'], number: number) =>
  Buffer.from(JSON.stringify({ algorithm: challenge.algorithm, challenge: challenge.challenge, number, salt: challenge.salt, signature: challenge.signature })).toString('base64');

/** The base64 JSON payload a browser sends for a solved challenge (`tamper`: a wrong number). */
export async function solve(challenge: OpenedForm['challenge'], tamper = false): Promise<string> {
  return payload(challenge, findNumber(challenge) + (tamper ? 1 : 0));
}

/** The same payload, solved by altcha-lib's own solver (the widget's algorithm). */
export async function solveWithAltcha(challenge: OpenedForm['challenge']): Promise<string> {
  const s = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  return payload(challenge, s!.number);
}

export const REPORT = {
  specialty: 'Family Medicine', state: 'TX', year: '2025', total_compensation: '285,000', base_salary: '250000', bonus: '35000',
  hours_per_week: '50', years_in_practice: '8', practice_setting: 'Hospital Employed', employment_type: 'Full-time (W-2)', wrvus: '',
};

export function postForm(url: string, ip: string, f: Pick<OpenedForm, 'cookie' | 'token'> | null, fields: Record<string, string>): Promise<HttpResponse> {
  const body = new URLSearchParams({ ...(f ? { form_token: f.token } : {}), ...fields }).toString();
  return request(url, '/contribute', { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip, ...(f ? { cookie: f.cookie } : {}) } });
}

export function postJson(url: string, ip: string, body: unknown): Promise<HttpResponse> {
  return request(url, '/contribute', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', 'x-forwarded-for': ip } });
}
