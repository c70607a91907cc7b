/**
 * The /contribute pages (pure HTML): the form (with the values and per-field messages of a refused try), and
 * the page after a report was received (where that pay falls in the published figures, and when it may be
 * published). The form works without JavaScript; with it, the page's script solves the proof-of-work
 * challenge embedded in the form before sending it.
 */
import { esc } from '../../build/pages/html.ts';
import { page, type SiteContext } from '../../build/pages/layout.ts';
import type { Challenge } from './challenge.ts';
import { INTAKE_FIELDS, type FieldErrors } from './form.ts';
import { OFFER_GROUPS } from './offer-form.ts';
import { COMPENSATION_MODELS, compensationModelOf } from '../../build/contract/offer-terms.ts';

export const CONTRIBUTE_PATH = '/contribute';

export interface FormView {
  values: Record<string, string>;
  errors: FieldErrors;
  /** one sentence above the form (a refusal that is not about one field) */
  problem?: string;
  token: string;
  challenge: Challenge;
  specialties: readonly string[];
  states: readonly { code: string; name: string }[];
  script: string;
  perDay: number;
}

const PAGE_CSS = `<style>
.intake label{font-weight:600;display:block}
.intake .hint{color:var(--muted);font-size:.9rem;margin:.1rem 0 .25rem}
.intake input,.intake select{font:inherit;padding:.35rem;width:100%;max-width:24rem}
.intake .field{margin:0 0 1rem}
.intake .error{color:var(--ref);font-weight:600;margin:.2rem 0}
.intake .trap{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.intake button{font:inherit;padding:.5rem 1rem}
.intake details.offer{margin:0 0 1rem;border:1px solid var(--line);border-radius:4px;padding:.5rem .75rem}
.intake details.offer>summary{font-weight:600;cursor:pointer;padding:.25rem 0}
.intake fieldset{border:0;border-top:1px solid var(--line);margin:.75rem 0 0;padding:.5rem 0 0;min-width:0}
.intake legend{font-weight:600;padding:0 .25rem 0 0}
.intake fieldset .field input,.intake fieldset .field select{max-width:14rem}
.intake dl.models{font-size:.9rem;margin:.25rem 0 0}
.intake dl.models dt{font-weight:600}
.intake dl.models dd{margin:0 0 .4rem 1rem}
@media (min-width:45rem){.intake fieldset{display:grid;grid-template-columns:1fr 1fr;column-gap:1.5rem}.intake fieldset>legend{grid-column:1/-1}}
</style>`;

function field(f: (typeof INTAKE_FIELDS)[number], v: FormView): string {
  const id = `f-${f.name}`;
  const value = v.values[f.name] ?? '';
  const err = v.errors[f.name];
  const described = [f.hint ? `${id}-hint` : '', err ? `${id}-error` : ''].filter(Boolean).join(' ');
  const common = `id="${id}" name="${f.name}"${f.required ? ' required' : ''}${described ? ` aria-describedby="${described}"` : ''}${err ? ' aria-invalid="true"' : ''}`;
  let control: string;
  if (f.name === 'state') {
    control = `<select ${common}><option value="">Choose a state</option>${[...v.states].sort((a, b) => a.name.localeCompare(b.name, 'en')).map((s) => `<option value="${esc(s.code)}"${value.toUpperCase() === s.code ? ' selected' : ''}>${esc(s.name)}</option>`).join('')}</select>`;
  } else if (f.options) {
    const chosen = compensationModelOf(value) ?? value;
    control = `<select ${common}><option value="">Not given</option>${f.options.map((o) => `<option value="${esc(o.value)}"${chosen === o.value ? ' selected' : ''}>${esc(o.label)}</option>`).join('')}</select>`;
  } else if (f.choices) {
    control = `<select ${common}><option value="">Not given</option>${f.choices.map((c) => `<option${value.toLowerCase() === c.toLowerCase() ? ' selected' : ''}>${esc(c)}</option>`).join('')}</select>`;
  } else if (f.name === 'specialty') {
    control = `<input ${common} list="specialty-names" autocomplete="off" value="${esc(value)}"><datalist id="specialty-names">${v.specialties.map((s) => `<option value="${esc(s)}">`).join('')}</datalist>`;
  } else {
    control = `<input ${common} type="text"${f.inputmode ? ` inputmode="${f.inputmode}"` : ''} autocomplete="off" value="${esc(value)}">`;
  }
  const models = f.name === 'compensation_model' ? modelsExplained() : '';
  return `<div class="field"><label for="${id}">${esc(f.label)}</label>${f.hint ? `<p class="hint" id="${id}-hint">${esc(f.hint)}</p>` : ''}${err ? `<p class="error" id="${id}-error">${esc(f.label.replace(/ \(.*\)$/, ''))} ${esc(err)}</p>` : ''}${control}${models}</div>`;
}

/** What each pay model means, folded under the pay model's field. */
function modelsExplained(): string {
  return `<details class="models-help"><summary>What these mean</summary><dl class="models">${COMPENSATION_MODELS.map((m) => `<dt>${esc(m.label)}</dt><dd>${esc(m.description)}</dd>`).join('')}</dl></details>`;
}

/**
 * "The rest of the offer": the whole offer's optional fields by group, folded away (short on a phone) unless
 * one of them holds a value or a message, so that a refused answer is never hidden.
 */
function offerFields(v: FormView): string {
  const fields = INTAKE_FIELDS.filter((f) => f.group);
  const open = fields.some((f) => (v.values[f.name] ?? '') !== '' || v.errors[f.name]);
  const groups = OFFER_GROUPS.map((g) => `<fieldset><legend>${esc(g)}</legend>\n${fields.filter((f) => f.group === g).map((f) => field(f, v)).join('\n')}\n</fieldset>`);
  return `<details class="offer" id="offer"${open ? ' open' : ''}><summary>The rest of the offer (optional)</summary>
<p class="hint">Call pay, one-time payments, benefits, how the contract pays and its terms. Answer any you know; leave the others empty.</p>
${groups.join('\n')}
</details>`;
}

export function formPage(site: SiteContext, v: FormView): string {
  const errorCount = Object.keys(v.errors).length;
  const summary = v.problem
    ? `<p class="notice" role="alert" id="problem">${esc(v.problem)}</p>`
    : errorCount
      ? `<p class="notice" role="alert" id="problem">${errorCount === 1 ? 'One answer needs' : `${errorCount} answers need`} a change: see the message${errorCount === 1 ? '' : 's'} by the field${errorCount === 1 ? '' : 's'} below.</p>`
      : '';
  const body = `${PAGE_CSS}
<h1>Report your pay</h1>
<p>Your report helps every physician see what the work pays. It takes a minute and asks nothing that identifies you: no name, no email, no employer, no free text.</p>
<h2>What happens to it</h2>
<ul>
<li><strong>Stored:</strong> the answers below, the time, and a keyed hash of your network address (to limit submissions to ${v.perDay} a day and to review abuse). The hash is deleted when the report is taken into the reports database; the address itself is never stored.</li>
<li><strong>Moderated:</strong> a person checks every report before it can count; implausible or duplicate reports are rejected.</li>
<li><strong>Published only as aggregates:</strong> in the next nightly build after approval, and only in cells with enough reports to meet the publication floors (5 nationally, 3 in a state); figures are perturbed and rounded so that no single report can be read off (<a href="/methodology">methodology</a>).</li>
<li><strong>Licence:</strong> the aggregate figures are open data under <a href="${esc(site.licenseUrl)}">${esc(site.license)}</a>; your individual report is never published.</li>
</ul>
${summary}
<form class="intake" method="post" action="${CONTRIBUTE_PATH}" novalidate data-challenge="${esc(JSON.stringify(v.challenge))}">
<input type="hidden" name="form_token" value="${esc(v.token)}">
<input type="hidden" name="altcha" value="">
<div class="trap" aria-hidden="true"><label for="f-website">Leave this empty</label><input id="f-website" name="website" type="text" tabindex="-1" autocomplete="off"></div>
${INTAKE_FIELDS.filter((f) => !f.group).map((f) => field(f, v)).join('\n')}
${offerFields(v)}
<p id="pow-status" role="status" aria-live="polite"></p>
<p><button type="submit">Send my report</button></p>
</form>
<script>${v.script}</script>`;
  return page(site, { title: 'Report your pay', description: 'Submit your physician compensation anonymously: moderated, published only as aggregates.', canonical: `${site.baseUrl}${CONTRIBUTE_PATH}`, body, noindex: false });
}

export interface ThanksView {
  /** where the pay falls in the published figures, in words (null: no published figures to compare with) */
  payCheck: string | null;
  specialtyName: string;
  stateName: string;
  specialtyPath: string | null;
}

export function thanksPage(site: SiteContext, t: ThanksView): string {
  const check = t.payCheck
    ? `<p id="pay-check">${esc(t.payCheck)}</p>`
    : `<p id="pay-check">There are not enough published figures for ${esc(t.specialtyName)} yet to place your pay: reports like yours are how they get there.</p>`;
  const body = `<h1>Thank you: your report was received</h1>
<h2>Where your pay falls today</h2>
${check}${t.payCheck && site.synthetic ? '\n<p id="synthetic-note">These figures are synthetic demo data, not real physicians&#39; reports.</p>' : ''}
<p>This compares your figure with what is published now; your report is not part of these figures yet.</p>
<h2>When it may be published</h2>
<p>A moderator reviews it first. Once approved, it counts from the next nightly build, and only in cells that reach the publication floors (5 reports nationally, 3 in ${esc(t.stateName)}). It is never shown on its own.</p>
<p>${t.specialtyPath ? `<a href="${esc(t.specialtyPath)}">See the ${esc(t.specialtyName)} figures</a> · ` : ''}<a href="${CONTRIBUTE_PATH}">Report another year</a></p>`;
  return page(site, { title: 'Report received', description: 'Your pay report was received.', canonical: `${site.baseUrl}${CONTRIBUTE_PATH}`, body, noindex: true });
}
