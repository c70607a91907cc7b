/**
 * Query parameters of the keyed API (pure): parsing, canonical spellings, and 400 messages that say what
 * is valid. Unknown or repeated parameters are refused, so typos do not silently widen a query.
 */
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS, REGIONS, canonicalValue, type Region } from '../../build/contract/vocab.ts';
import { normalizeName } from '../../build/contract/names.ts';
import type { KeyedIndex } from '../../build/contract/keyed-artifacts.ts';
import type { Resolver } from '../open-data/resolve.ts';
import { badRequest } from './errors.ts';


export type Query = Record<string, unknown>;

export function allowOnly(query: Query, allowed: readonly string[]): void {
  const unknown = Object.keys(query).filter((k) => !allowed.includes(k));
  if (unknown.length) {
    throw badRequest(`unknown parameter(s): ${unknown.map((k) => k.slice(0, 40)).join(', ')}; allowed: ${allowed.join(', ') || 'none'}`);
  }
}

/** C0 and C1 controls, DEL, bidirectional and direction marks, noncharacters: never part of a name. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffe\uffff]/;

/**
 * One string value, or undefined. Repeated parameters, empty values and values holding a control character
 * (a NUL, ESC, a bidi override) are 400s. Letters with accents are folded when names are matched
 * (build/contract/names.ts: "Téxas" is Texas), like case and punctuation.
 */
export function single(query: Query, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw badRequest(`parameter ${name} must be given once, as a single value`);
  if (v.trim() === '') throw badRequest(`parameter ${name} is empty`);
  if (v.length > 200) throw badRequest(`parameter ${name} is longer than 200 characters`);
  const control = CONTROL.exec(v);
  if (control) throw badRequest(`parameter ${name} contains the control character U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}; send plain text`);
  return v.trim();
}

export interface ResolvedSpecialty {
  slug: string;
  name: string;
}

export function parseSpecialty(query: Query, index: KeyedIndex, resolver: Resolver): ResolvedSpecialty {
  const raw = single(query, 'specialty');
  if (raw === undefined) throw badRequest('parameter specialty is required (a specialty name such as "Cardiology"; see /api/v1/specialties)');
  const r = resolver.resolve('specialty', raw);
  if (!r.found) {
    const hint = r.suggestions.length ? `; did you mean: ${r.suggestions.map((s) => s.name).join(', ')}` : '';
    throw badRequest(`unknown specialty "${raw}"${hint}`);
  }
  return r.entity;
}

export interface ResolvedState {
  code: string;
  name: string;
  region: Region;
}

/** States by normalised name, built once per build's index (not 51 normalisations per request). */
const statesByName = new WeakMap<KeyedIndex, Map<string, KeyedIndex['states'][number]>>();

function stateByName(index: KeyedIndex, raw: string): KeyedIndex['states'][number] | undefined {
  let byName = statesByName.get(index);
  if (!byName) statesByName.set(index, (byName = new Map(index.states.map((s) => [normalizeName(s.name), s]))));
  return byName.get(normalizeName(raw));
}

export function parseState(query: Query, index: KeyedIndex, resolver: Resolver): ResolvedState | null {
  const raw = single(query, 'state');
  if (raw === undefined) return null;
  if (/^[A-Za-z]{2}$/.test(raw)) {
    const st = index.states.find((s) => s.code === raw.toUpperCase());
    throw badRequest(`state must be a full US state name${st ? ` such as "${st.name}"` : ''}, not a two-letter code`);
  }
  const st = stateByName(index, raw);
  if (!st) {
    const r = resolver.resolve('state', raw);
    const hint = !r.found && r.suggestions.length ? `; did you mean: ${r.suggestions.map((s) => s.name).join(', ')}` : '';
    throw badRequest(`unknown state "${raw}": give a full US state name or District of Columbia${hint}`);
  }
  return { code: st.code, name: st.name, region: st.region };
}

export function parseRegion(query: Query): Region | null {
  const raw = single(query, 'region');
  if (raw === undefined) return null;
  const r = canonicalValue(REGIONS, raw);
  if (!r) throw badRequest(`region must be one of ${REGIONS.join(', ')} (got "${raw}")`);
  return r;
}

export function parseChoice<T extends string>(query: Query, name: string, allowed: readonly T[]): T | null {
  const raw = single(query, name);
  if (raw === undefined) return null;
  const v = canonicalValue(allowed, raw);
  if (!v) throw badRequest(`${name} must be one of: ${allowed.join(', ')} (got "${raw}")`);
  return v;
}

export const parsePracticeSetting = (q: Query) => parseChoice(q, 'practice_setting', PRACTICE_SETTINGS);
export const parseEmploymentType = (q: Query) => parseChoice(q, 'employment_type', EMPLOYMENT_TYPES);

export function parseYear(query: Query, name: string): number | null {
  const raw = single(query, name);
  if (raw === undefined) return null;
  if (!/^\d{4}$/.test(raw)) throw badRequest(`${name} must be a four-digit year (got "${raw}")`);
  const y = Number(raw);
  if (y < 1990 || y > 2100) throw badRequest(`${name} must be between 1990 and 2100 (got ${y})`);
  return y;
}
