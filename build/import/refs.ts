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
