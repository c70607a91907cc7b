/**
 * What the prompts share: argument schemas with completions from the build being served, names resolved
 * as the tools resolve them (unknown names are a prompt error with close matches), the parsing of a pay
 * figure typed as text, and the citation rules every prompt gives the assistant.
 */
import { z } from 'zod';
import { ProtocolError, ProtocolErrorCode, completable, type GetPromptResult } from '@modelcontextprotocol/server';
import type { LoadedBuild } from '../../builds/loaded-build.ts';
import type { Entity, EntityKind } from '../../open-data/resolve.ts';
import { completeEntity } from '../complete.ts';
import { resolveEntity, ToolInputError } from '../lookup.ts';
import { escapeHidden } from '../text.ts';
import { annualPayIssue } from '../../../build/contract/annual-pay.ts';

/** A prompt argument the prompt cannot use (unknown name, unreadable pay figure): a JSON-RPC invalid-params error. */
export class PromptInputError extends ProtocolError {
  constructor(message: string) {
    super(ProtocolErrorCode.InvalidParams, escapeHidden(message));
  }
}

/** What a prompt says: a one-line description and the text of its single user message. */
export interface PromptText {
  description: string;
  text: string;
}

export function promptResult(p: PromptText): GetPromptResult {
  return { description: escapeHidden(p.description), messages: [{ role: 'user', content: { type: 'text', text: escapeHidden(p.text) } }] };
}

/** Resolve a prompt argument as the tools do; an unknown name is a prompt error naming the argument and close matches. */
export function resolveArg(build: LoadedBuild, kind: EntityKind, arg: string, raw: string): Entity {
  try {
    return resolveEntity(build, kind, raw);
  } catch (err) {
    if (err instanceof ToolInputError) throw new PromptInputError(`${arg}: ${err.message}`);
    throw err;
  }
}

/** An optional argument: clients send "" for an empty optional field. */
export const given = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/** A tool call as the prompt tells it: the tool's name and its arguments as JSON. */
export const call = (tool: string, args: Record<string, string | number>) => `\`${tool}\` with arguments \`${JSON.stringify(args)}\``;

/** Imported text (a hospital's name) in a prompt: quoted, as data. */
export const quoted = (s: string) => JSON.stringify(s);

const dollars = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
export const usd = (v: number) => `$${dollars.format(v)}`;

export const INTRO = 'Use the physpay tools: physician compensation benchmarks from approved, self-reported salary reports (CC BY 4.0), published only where enough reports exist.';

/** How to cite attending-pay figures (get_specialty_pay, compare_specialties, evaluate_compensation, get_wrvu_rate). */
export const CITATION_RULES = [
  'How to cite:',
  '- With every figure give n (the number of approved reports behind it) and as_of (the date of the data), and say the figures are self-reported by physicians.',
  '- Link each result\'s citation_url, and end the answer with the attribution line of each result you used, copied verbatim from its `attribution` field (it names the source, the CC BY 4.0 licence and the access date).',
  '- A null figure is withheld: too few reports to publish it (the result\'s `notice` says so). Say it is withheld; never estimate, interpolate or fill it in from other sources.',
  '- If a result has `synthetic: true`, say the figures are demo data, not real reports.',
  '- If a tool returns an error, say so; never guess figures.',
].join('\n');

const PER_PERIOD = /(?:\/|\bper\b|\ban?\b)\s*(?:hours?|hrs?|h|months?|mo|weeks?|wks?|days?|shifts?)\b|\b(?:hourly|monthly|weekly|daily)\b/;
const RANGE = /\d\s*(?:k|m|thousand|million)?\s*(?:-|–|—|\bto\b|\bor\b)\s*(?:us\s?\$|\$)?\s*\d/;
const CURRENCY_PREFIX = /^(?:us\s?\$|\$|usd\b)\s*/;
const YEARLY_SUFFIX = /\s*(?:usd|dollars?)?\s*(?:\/\s*(?:yr|year|annum)|(?:per|a|an) (?:yr|year|annum)|annually|yearly|annual|a yr)?$/;
const AMOUNT = /^(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(k|thousand|m|mm|million)?$/;

/**
 * An annual total pay typed as text ("350000", "$350,000", "350k", "$1.2M", "350,000 USD per year") in
 * dollars, rounded to cents. Hourly or monthly rates, ranges and anything else are refused with an error
 * saying how to write it, as are figures that are not a year's pay by the tools' one rule (annualPayIssue:
 * under $10,000 or over $100,000,000).
 */
export function parseTotalPay(raw: string): number {
  const shown = JSON.stringify(raw.slice(0, 40));
  const how = 'give one annual total in US dollars, e.g. 350000, $350,000 or 350k';
  const s = raw.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
  if (PER_PERIOD.test(s)) throw new PromptInputError(`total_pay ${shown} is not an annual figure: ${how} (base, bonus and incentives for a year).`);
  if (RANGE.test(s)) throw new PromptInputError(`total_pay ${shown} is a range: ${how}.`);
  const m = AMOUNT.exec(s.replace(CURRENCY_PREFIX, '').replace(YEARLY_SUFFIX, ''));
  if (!m) throw new PromptInputError(`total_pay ${shown} is not a dollar amount: ${how}.`);
  const scale = m[3] === undefined ? 1 : m[3].startsWith('k') || m[3] === 'thousand' ? 1_000 : 1_000_000;
  const value = Math.round(Number(`${m[1]!.replace(/,/g, '')}${m[2] ?? ''}`) * scale * 100) / 100;
  const issue = annualPayIssue(value);
  if (issue !== null) throw new PromptInputError(`total_pay ${shown} ${issue}; ${how}.`);
  return value;
}

/**
 * A string argument completed from the build's specialties, states or teaching hospitals (every known
 * spelling matches: codes, names, common spellings such as "OB/GYN" or "ENT"); values are names, which
 * the prompts and the tools resolve.
 */
export function entityArg(build: LoadedBuild | null, kind: EntityKind, schema: z.ZodString) {
  return completable(schema, (value) => {
    // every match: the SDK sends the first 100 and reports the total and hasMore
    return completeEntity(build?.resolver, kind, value ?? '', 'name').values;
  });
}

/** A string argument; a missing required one is "missing" (not the schema library's "expected string, received undefined"). */
export const text = () => z.string({ error: (iss) => (iss.code === 'invalid_type' ? (iss.input === undefined ? 'missing: this prompt needs it' : 'must be a string') : undefined) });

export const specialtyArg = (build: LoadedBuild | null) =>
  entityArg(build, 'specialty', text().min(1).max(100).describe('Specialty: name or common spelling, e.g. "Cardiology", "OB/GYN", "ENT"'));

export const stateArg = (build: LoadedBuild | null, description: string) =>
  entityArg(build, 'state', text().max(60).describe(description)).optional();
