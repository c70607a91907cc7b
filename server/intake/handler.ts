/**
 * /contribute: physicians submit their pay (the shell around form.ts, tokens.ts, challenge.ts and page.ts).
 *
 *   GET  /contribute            the form (sets the form cookie; embeds a signed token and a challenge)
 *   GET  /contribute/challenge  a proof-of-work challenge as JSON (for clients of the JSON endpoint)
 *   POST /contribute            a report, form-encoded (the page) or JSON; at most 16 kB
 *
 * Checks, in order: body size and type; the honeypot; the form token (form posts) or the solved challenge
 * (JSON posts, and form posts whose script ran); the values (the importer's rules); then one store step that
 * refuses a repeat of the same report by the same client (on any day, also after the report was imported)
 * and more than `perDay` a day per client, and
 * otherwise stores it as pending intake. The server never opens the reports DB: `physpay import
 * submissions` moves the reports there. Refusals say what to do and nothing about other people's reports.
 * Every answer is `no-store`; nothing is counted against the open-data limits.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { submissionFingerprint } from '../../build/db/fingerprint.ts';
import type { BuildRegistry } from '../builds/registry.ts';
import type { LoadedBuild } from '../builds/loaded-build.ts';
import type { Clock } from '../http/clock.ts';
import { readBody } from '../http/body.ts';
import { pageSecurityHeaders } from '../http/page-security.ts';
import { requestIdHeader, sendJson } from '../http/send.ts';
import { evaluateAgainst } from '../mcp/tools/evaluate-compensation.ts';
import { specialtyPayDoc } from '../mcp/lookup.ts';
import { payPlacementText } from './thanks-text.ts';
import { siteContextOf } from '../pages/site-context.ts';
import { fteScale } from '../../build/compute/headline.ts';
import { StoreUnavailableError, type IntakeReport, type ServiceStore } from '../store/types.ts';
import { newChallenge, solved } from './challenge.ts';
import { checkReport, FIELD_NAMES, type FieldErrors } from './form.ts';
import { CONTRIBUTE_PATH, formPage, thanksPage } from './page.ts';
import { checkFormToken, clientHash, cookieValue, FORM_COOKIE, formToken, MAX_AGE_SECONDS } from './tokens.ts';

export const INTAKE_MAX_BYTES = 16 * 1024;
export const DEFAULT_INTAKE_PER_DAY = 5;
/**
 * Reports without a proof of work (the form without JavaScript) the whole site takes per UTC day. Without
 * JavaScript nothing costs a bot work (a wait is not work), so what it can add that way is capped for
 * everyone; past the cap the form asks for a browser with JavaScript. Each is marked for the moderator.
 */
export const DEFAULT_INTAKE_WITHOUT_JS_PER_DAY = 20;

export interface IntakeDeps {
  registry: BuildRegistry;
  store: ServiceStore;
  clock: Clock;
  clientIp: (req: IncomingMessage) => string;
  /** submissions a client may make per UTC day (default 5) */
  perDay?: number;
  /** submissions without a proof of work the whole site takes per UTC day (default 20) */
  withoutJsPerDay?: number;
}

/** The canonical route is one of this module's. */
export function isContributeTarget(route: string): boolean {
  return route === CONTRIBUTE_PATH || route === `${CONTRIBUTE_PATH}/` || route === `${CONTRIBUTE_PATH}/challenge`;
}

let script: string | undefined;
const contributeScript = () => (script ??= readFileSync(join(import.meta.dirname, 'browser', 'contribute.js'), 'utf8'));

/** A refusal: its status, one sentence, and (for values) a message per field. */
class Refusal extends Error {
  /** the form given back keeps this opening time (tokens.ts): set for refusals where no report was stored */
  openedAtSeconds?: number;
  constructor(readonly status: number, message: string, readonly fields: FieldErrors = {}) {
    super(message);
  }
}

export function createIntakeHandler(deps: IntakeDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const perDay = deps.perDay ?? DEFAULT_INTAKE_PER_DAY;
  const limits = { perClient: perDay, withoutProofPerDay: deps.withoutJsPerDay ?? DEFAULT_INTAKE_WITHOUT_JS_PER_DAY };
  let secret: string | undefined;
  const secretOf = async () => (secret ??= await deps.store.intakeSecret());

  function html(res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}): void {
    const bytes = Buffer.from(body, 'utf8');
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': bytes.length, 'cache-control': 'no-store', ...pageSecurityHeaders(body), ...requestIdHeader(res), ...extra });
    res.end(bytes);
  }

  /**
   * The form page, with a fresh token (and cookie) and challenge. `openedAtSeconds`: the token's time when the
   * form is given back after a refusal of a valid token's post (the first opening's; tokens.ts), else now.
   */
  async function showForm(req: IncomingMessage, res: ServerResponse, build: LoadedBuild, status: number, values: Record<string, string> = {}, errors: FieldErrors = {}, problem?: string, openedAtSeconds?: number): Promise<void> {
    const key = await secretOf();
    const now = deps.clock().getTime();
    const nonce = randomBytes(18).toString('base64url');
    const secure = (req.socket as { encrypted?: boolean }).encrypted || req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
    const body = formPage(siteContextOf(build), {
      values, errors, problem, token: formToken(key, nonce, openedAtSeconds ?? Math.floor(now / 1000), clientHash(key, deps.clientIp(req))), challenge: await newChallenge(key, now), perDay,
      specialties: build.keyedIndex.specialties.map((s) => s.name), states: build.keyedIndex.states.map((s) => ({ code: s.code, name: s.name })), script: contributeScript(),
    });
    html(res, status, body, { 'set-cookie': `${FORM_COOKIE}=${nonce}; Path=${CONTRIBUTE_PATH}; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict${secure}` });
  }

  /**
   * Where the pay falls in the published figures (the state's when published, else the nation's), in words.
   * The published figures are full-time pay: a part-time report's pay is placed on the same basis first (x 40 /
   * hours, the build's rule) and the text says so; without hours the pay is compared as given.
   */
  function payCheck(build: LoadedBuild, r: IntakeReport): { text: string | null; evaluation: ReturnType<typeof evaluateAgainst> | null } {
    const day = deps.clock().toISOString().slice(0, 10);
    const scale = r.hours_per_week === null ? 1 : fteScale(r.hours_per_week, -1);
    const compared = scale === null || scale === 1 ? r.total_compensation : (r.total_compensation * 40) / r.hours_per_week!;
    const scaledNote = compared !== r.total_compensation ? `On a full-time basis (x 40 / ${r.hours_per_week} hours a week), your pay is ${Math.round(compared).toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })}. ` : '';
    for (const state of [r.state, undefined]) {
      try {
        const e = evaluateAgainst(specialtyPayDoc(build, day, r.specialty, state), compared);
        if (e.band !== null) return { text: scaledNote + payPlacementText(e), evaluation: e };
      } catch {
        // no document for the state: try the nation
      }
    }
    return { text: null, evaluation: null };
  }

  async function accept(req: IncomingMessage, build: LoadedBuild, values: Record<string, unknown>, json: boolean): Promise<{ report: IntakeReport }> {
    const key = await secretOf();
    const now = deps.clock();
    if (typeof values.website === 'string' && values.website.trim() !== '') throw new Refusal(400, 'This submission was not accepted.');
    let challenge: 'pow' | 'form' = 'pow';
    let seconds: number | null = null;
    let formNonce: string | null = null;
    let openedAt: number | undefined;
    const client = clientHash(key, deps.clientIp(req));
    if (!json) {
      const t = checkFormToken(key, typeof values.form_token === 'string' ? values.form_token : undefined, cookieValue(req.headers.cookie, FORM_COOKIE), client, Math.floor(now.getTime() / 1000));
      if (!t.ok) {
        const refusal = new Refusal(403, t.reason === 'too_fast'
          ? 'The form was sent too quickly after it was opened; check your answers and send it again.'
          : 'This form has expired, was opened from another connection, or was not opened on this site (cookies must be allowed for it); it has been reloaded: send it again.');
        if (t.reason === 'too_fast') refusal.openedAtSeconds = t.issuedAtSeconds;
        throw refusal;
      }
      seconds = t.secondsToSubmit;
      formNonce = t.nonce;
      openedAt = t.issuedAtSeconds;
    }
    const pow = typeof values.altcha === 'string' ? values.altcha : '';
    let signature: string | null = null;
    if (pow !== '') {
      signature = await solved(key, pow, now.getTime());
      if (signature === null) throw new Refusal(403, 'The anti-abuse check failed or expired; reload the page and send the form again.');
    } else if (json) {
      throw new Refusal(400, `altcha is required: GET ${CONTRIBUTE_PATH}/challenge, solve it (SHA-256 of salt + number = challenge) and send the base64 JSON payload`);
    } else {
      // without JavaScript: the form's token is what the report spends
      challenge = 'form';
      signature = `form:${formNonce}`;
    }
    const checked = checkReport(values, {
      resolver: build.resolver,
      stateCodeBySlug: new Map(build.keyedIndex.states.map((s) => [s.slug, s.code])),
      currentYear: now.getUTCFullYear(),
    });
    if ('errors' in checked) {
      const refusal = new Refusal(422, 'Some answers need a change.', checked.errors);
      refusal.openedAtSeconds = openedAt;
      throw refusal;
    }
    const r = checked.report;
    const outcome = await deps.store.submitReport({
      id: randomUUID(), report: r,
      fingerprint: submissionFingerprint(r),
      clientHash: client, day: now.toISOString().slice(0, 10), received_at: now.toISOString(), challenge, challengeSignature: signature, seconds_to_submit: seconds,
    }, limits);
    if (outcome.outcome === 'limited') throw new Refusal(429, `You have sent ${perDay} reports today, the most a day from one connection; please come back tomorrow.`);
    if (outcome.outcome === 'budget') {
      throw new Refusal(429, `Today's reports without JavaScript are used up for the whole site (${limits.withoutProofPerDay} a day: without JavaScript the form has no proof of work, so this is what keeps bots out). Send it from a browser with JavaScript on, where a check of about a second replaces this limit, or come back tomorrow.`);
    }
    if (outcome.outcome === 'spent') {
      throw new Refusal(403, challenge === 'form'
        ? 'This form was already used for a report; it has been reloaded for the next one.'
        : 'This anti-abuse check was already used for a report; reload the page (or get a new challenge) for the next one.');
    }
    if (outcome.outcome === 'repeat') throw new Refusal(409, 'You have already sent this report; it was received and is kept once.');
    return { report: r };
  }

  return async (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = (q >= 0 ? url.slice(0, q) : url).toLowerCase().replace(/\/+$/, '');
    const build = deps.registry.current;
    if (!build) {
      sendJson(res, 503, { error: 'starting: no published build is loaded yet; retry shortly' }, { 'cache-control': 'no-store', 'retry-after': 5 });
      return;
    }
    try {
      if (path === `${CONTRIBUTE_PATH}/challenge`) {
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          sendJson(res, 405, { error: `method ${req.method} not allowed: GET the challenge` }, { allow: 'GET, HEAD', 'cache-control': 'no-store' });
          return;
        }
        sendJson(res, 200, await newChallenge(await secretOf(), deps.clock().getTime()), { 'cache-control': 'no-store' }, req.method === 'HEAD');
        return;
      }
      if (req.method === 'GET' || req.method === 'HEAD') {
        // the site's pages link here with ?specialty=<slug>&state=<slug>: the form opens with them filled in
        // (the specialty by its name, the state by its code), each only when the build's lists know it
        const params = new URLSearchParams(q >= 0 ? url.slice(q + 1) : '');
        const prefill: Record<string, string> = {};
        const specialty = params.get('specialty');
        const sp = specialty ? build.resolver.resolve('specialty', specialty.slice(0, 200)) : null;
        if (sp?.found) prefill.specialty = sp.entity.name;
        const state = params.get('state');
        const st = state ? build.resolver.resolve('state', state.slice(0, 200)) : null;
        const code = st?.found ? build.keyedIndex.states.find((s) => s.slug === st.entity.slug)?.code : undefined;
        if (code) prefill.state = code;
        await showForm(req, res, build, 200, prefill);
        return;
      }
      if (req.method !== 'POST') {
        sendJson(res, 405, { error: `method ${req.method} not allowed: GET the form, POST a report` }, { allow: 'GET, HEAD, POST', 'cache-control': 'no-store' });
        return;
      }
      const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      const json = type === 'application/json';
      if (!json && type !== 'application/x-www-form-urlencoded') {
        req.resume();
        sendJson(res, 415, { error: 'send the report as application/json or application/x-www-form-urlencoded' }, { 'cache-control': 'no-store' });
        return;
      }
      const read = await readBody(req, INTAKE_MAX_BYTES);
      if (read.kind === 'gone') return;
      if (read.kind === 'too-large') {
        sendJson(res, 413, { error: `the report is larger than ${INTAKE_MAX_BYTES / 1024} kB` }, { 'cache-control': 'no-store', connection: 'close' });
        return;
      }
      const body = read.bytes;
      let values: Record<string, unknown>;
      if (json) {
        try {
          const parsed = JSON.parse(body.toString('utf8')) as unknown;
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
          values = parsed as Record<string, unknown>;
        } catch {
          sendJson(res, 400, { error: 'the body is not a JSON object' }, { 'cache-control': 'no-store' });
          return;
        }
      } else {
        values = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
      }
      const formValues = Object.fromEntries(FIELD_NAMES.map((n) => [n, typeof values[n] === 'string' || typeof values[n] === 'number' ? String(values[n]).slice(0, 200) : '']));
      try {
        const { report } = await accept(req, build, values, json);
        const check = payCheck(build, report);
        const specialtySlug = build.resolver.resolve('specialty', report.specialty);
        const publication = 'Received. A moderator reviews it; once approved it counts from the next nightly build, only in cells that meet the publication floors (5 nationally, 3 in a state), and it is never shown on its own.';
        if (json) {
          sendJson(res, 201, { status: 'received', publication, pay_check: check.evaluation }, { 'cache-control': 'no-store' });
          return;
        }
        const stateName = build.keyedIndex.states.find((s) => s.code === report.state)?.name ?? report.state;
        html(res, 201, thanksPage(siteContextOf(build), {
          payCheck: check.text, specialtyName: report.specialty, stateName,
          specialtyPath: specialtySlug.found ? `/salaries/${specialtySlug.entity.slug}` : null,
        }));
      } catch (err) {
        if (!(err instanceof Refusal)) throw err;
        if (json) sendJson(res, err.status, Object.keys(err.fields).length ? { error: err.message, fields: err.fields } : { error: err.message }, { 'cache-control': 'no-store' });
        else await showForm(req, res, build, err.status, formValues, err.fields, Object.keys(err.fields).length ? undefined : err.message, err.openedAtSeconds);
      }
    } catch (err) {
      if (err instanceof StoreUnavailableError) {
        sendJson(res, 503, { error: 'temporarily unavailable; retry in a few seconds' }, { 'cache-control': 'no-store', 'retry-after': 5 });
        return;
      }
      throw err;
    }
  };
}
