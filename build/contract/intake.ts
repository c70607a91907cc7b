/**
 * The contract of the intake endpoint (POST /contribute as JSON, GET /contribute/challenge): zod schemas the
 * server's answers are checked against in the tests, and the OpenAPI document generated from them
 * (docs/openapi/contribute.json). Outside the read-only /data/api/v1 and /api/v1 trees.
 */
import { z } from 'zod';
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS } from './vocab.ts';
import { COMPENSATION_MODELS, OFFER_RANGES } from './offer-terms.ts';
import { PayEvaluationOutput } from '../../server/mcp/schemas.ts';
import { jsonSchema } from './openapi.ts';

type Json = Record<string, unknown>;

const value = (description: string) => z.union([z.string().max(200), z.number()]).describe(description);
const optional = (description: string) => value(`${description} (optional: omit, or send "")`).optional();

export const IntakeRequest = z
  .object({
    specialty: value('specialty: a name, slug or common spelling ("OB/GYN", "cardiology")'),
    state: value('US state: two-letter code or full name'),
    year: value('compensation year (1990 to this year)'),
    total_compensation: value('total annual compensation in US dollars: 285000, "285,000" or "$285,000"'),
    base_salary: optional('base salary in US dollars'),
    bonus: optional('bonus and incentives in US dollars'),
    hours_per_week: optional('hours worked per week (1 to 168)'),
    years_in_practice: optional('years in practice after training (0 to 70)'),
    practice_setting: optional(`practice setting: ${PRACTICE_SETTINGS.join(', ')} (any letter case)`),
    employment_type: optional(`employment type: ${EMPLOYMENT_TYPES.join(', ')} (any letter case)`),
    wrvus: optional('annual work RVUs'),
    // the whole offer (README: Input files, the reports file's optional columns): the importer's rules
    call_pay: optional(`call pay in US dollars a year, part of total_compensation (0 to ${OFFER_RANGES.call_pay.max})`),
    call_nights_per_month: optional(`call nights a month (0 to ${OFFER_RANGES.call_nights_per_month.max})`),
    signing_bonus: optional(`sign-on bonus in US dollars, paid once, not part of total_compensation (0 to ${OFFER_RANGES.signing_bonus.max}; "none" = 0)`),
    retention_bonus: optional(`retention bonus in US dollars, paid once (0 to ${OFFER_RANGES.retention_bonus.max}; "none" = 0)`),
    relocation: optional(`relocation money in US dollars, once (0 to ${OFFER_RANGES.relocation.max}; "none" = 0)`),
    loan_repayment: optional(`student loan repayment in US dollars over the whole contract (0 to ${OFFER_RANGES.loan_repayment.max}; "none" = 0)`),
    loan_repayment_years: optional(`years the loan repayment is spread over, a whole number (${OFFER_RANGES.loan_repayment_years.min} to ${OFFER_RANGES.loan_repayment_years.max}); needs loan_repayment above 0`),
    cme_allowance: optional(`CME allowance in US dollars a year (0 to ${OFFER_RANGES.cme_allowance.max}; "none" = 0)`),
    pto_weeks: optional(`paid time off in weeks a year (0 to ${OFFER_RANGES.pto_weeks.max})`),
    compensation_model: optional(`how the contract pays: ${COMPENSATION_MODELS.map((m) => `${m.value} ("${m.label}")`).join(', ')}; the value or the label, any letter case`),
    wrvu_conversion_rate: optional(`the contract's US dollars per wRVU (${OFFER_RANGES.wrvu_conversion_rate.min} to ${OFFER_RANGES.wrvu_conversion_rate.max})`),
    non_compete_miles: optional(`non-compete radius in miles (0 to ${OFFER_RANGES.non_compete_miles.max}; 0 or "none": no non-compete)`),
    non_compete_years: optional(`non-compete length in years (0 to ${OFFER_RANGES.non_compete_years.max}); needs non_compete_miles, and is needed when that is above 0`),
    partnership_track_years: optional(`years to partnership (0 to ${OFFER_RANGES.partnership_track_years.max}; 0 or "none": no partnership track)`),
    altcha: z.string().max(2000).describe('the solved challenge: base64 of JSON {algorithm, challenge, number, salt, signature}, where SHA-256(salt + number) = challenge, for a challenge from GET /contribute/challenge; each is spent by one report'),
  })
  .describe('One report. No field identifies the person; unknown fields are ignored.');

export const IntakeChallenge = z
  .object({
    algorithm: z.literal('SHA-256'),
    challenge: z.string().describe('hex SHA-256 of salt + the secret number'),
    maxnumber: z.number().int().describe('the number is at most this'),
    salt: z.string().describe('includes ?expires=<unix seconds>: solve and send it before then'),
    signature: z.string(),
  })
  .strict();

export const IntakeReceived = z
  .object({
    status: z.literal('received'),
    publication: z.string().describe('what happens next: moderation, the nightly build, the publication floors'),
    pay_check: PayEvaluationOutput.nullable().describe('where the pay falls among the published figures of its specialty (in its state when published there, else nationally); null when nothing is published to compare with'),
  })
  .strict();

export const IntakeError = z
  .object({ error: z.string(), fields: z.record(z.string(), z.string()).optional().describe('a message per field whose value was refused (422)') })
  .strict();

export type IntakeReceived = z.infer<typeof IntakeReceived>;

export function intakeOpenApi(): Json {
  const err = (description: string, headers: Json = {}) => ({ description, headers, content: { 'application/json': { schema: { $ref: '#/components/schemas/IntakeError' } } } });
  return {
    openapi: '3.1.0',
    info: {
      title: 'PhysPay report intake',
      version: '1.0.0',
      description: 'Physicians submit their own compensation. Reports are stored as pending, moderated, and published only as aggregates in a later nightly build (publication floors and disclosure control apply). The web form at /contribute posts the same fields form-encoded, with a form token instead of the challenge when JavaScript is off.',
      license: { name: 'CC-BY-4.0 (the published aggregates)', identifier: 'CC-BY-4.0' },
    },
    servers: [{ url: '/' }],
    security: [], // no credentials: the proof of work and the per-client limit stand in for them
    paths: {
      '/contribute/challenge': {
        get: {
          operationId: 'intakeChallenge', summary: 'A proof-of-work challenge to solve before sending a report (not counted)',
          responses: {
            '200': { description: 'OK', headers: { 'Cache-Control': { schema: { type: 'string' }, description: 'no-store' } }, content: { 'application/json': { schema: { $ref: '#/components/schemas/IntakeChallenge' } } } },
            '405': err('a method other than GET or HEAD', { Allow: { schema: { type: 'string' }, description: 'GET, HEAD' } }),
            '503': err('starting: no build loaded yet', { 'Retry-After': { schema: { type: 'integer' }, description: 'seconds' } }),
          },
        },
      },
      '/contribute': {
        post: {
          operationId: 'submitReport', summary: 'Send one report (at most 5 per client address per UTC day by default)',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/IntakeRequest' } } } },
          responses: {
            '201': { description: 'Received (also when another client sent the same figures: nothing about other reports is revealed)', content: { 'application/json': { schema: { $ref: '#/components/schemas/IntakeReceived' } } } },
            '400': err('the body is not a JSON object, altcha is missing, or the request was refused'),
            '403': err('the challenge is wrong, expired or already spent'),
            '409': err('this client already sent this same report (the same values, whenever sent: a report is kept once, also after it was imported)'),
            '413': err('body over 16 kB'),
            '415': err('not application/json or application/x-www-form-urlencoded'),
            '422': err('values refused: a message per field in `fields` (the importer\'s rules)'),
            '429': err('the client\'s submissions for the UTC day are used up'),
            '503': err('starting, or the service store is unavailable', { 'Retry-After': { schema: { type: 'integer' }, description: 'seconds' } }),
          },
        },
      },
    },
    components: {
      schemas: {
        IntakeRequest: jsonSchema(IntakeRequest),
        IntakeChallenge: jsonSchema(IntakeChallenge),
        IntakeReceived: jsonSchema(IntakeReceived),
        IntakeError: jsonSchema(IntakeError),
      },
    },
  };
}
