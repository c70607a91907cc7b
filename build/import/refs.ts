/**
 * Reference lookups the importers validate against, read once from the reports DB.
 */
import type { Db } from '../db/open.ts';
import { normalizeName } from '../contract/names.ts';

export interface Refs {
  /** normalised spelling -> specialty id */
  specialtyByAlias: Map<string, { id: number; slug: string }>;
  /** two-letter code, or normalised full name -> code */
  stateCode: Map<string, string>;
}

export function loadRefs(db: Db): Refs {
  const specialtyByAlias = new Map<string, { id: number; slug: string }>();
  for (const r of db
    .prepare('SELECT a.alias, s.id, s.slug FROM specialty_aliases a JOIN specialties s ON s.id = a.specialty_id')
    .all() as { alias: string; id: number; slug: string }[]) {
    specialtyByAlias.set(r.alias, { id: r.id, slug: r.slug });
  }
  const stateCode = new Map<string, string>();
  for (const r of db.prepare('SELECT code, name FROM states').all() as { code: string; name: string }[]) {
    stateCode.set(r.code, r.code);
    stateCode.set(normalizeName(r.name), r.code);
  }
  return { specialtyByAlias, stateCode };
}

export function resolveSpecialty(refs: Refs, text: string): { id: number; slug: string } | undefined {
  return refs.specialtyByAlias.get(normalizeName(text));
}

/** The refusal of a specialty none of whose spellings matches, naming the command that lists them. */
export function unknownSpecialtyIssue(raw: string): string {
  return `unknown specialty "${raw}" (physpay reference specialties lists the names and spellings)`;
}

/**
 * The refusal of a state that is not a two-letter code: a full state name is answered with its code,
 * anything else with the command that lists the codes (physpay reference states).
 */
export function stateCodeIssue(refs: Refs, raw: string, example = ''): string {
  const byName = raw.length > 2 ? refs.stateCode.get(normalizeName(raw)) : undefined;
  const fix = byName ? `write ${byName}` : 'physpay reference states lists them';
  return `must be a two-letter US state code${example ? ` ${example}` : ''} (got "${raw}": ${fix})`;
}

/** The refusal of a state that is neither a code nor a full name (cost-of-living files take both). */
export function unknownStateIssue(raw: string): string {
  return `unknown state "${raw}" (a two-letter code or full name: physpay reference states lists them)`;
}
