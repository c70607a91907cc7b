/**
 * Completions of specialty, state and teaching-hospital arguments (prompts and resource templates), from
 * the build being served (pure over its resolver). What was typed is matched against every known spelling
 * (slug, name, two-letter code, common spellings such as "OB/GYN" or "ENT"), ignoring case, accents and
 * punctuation: prefix matches of a word come first, then matches inside a spelling.
 */
import { normalizeName } from '../../build/contract/names.ts';
import type { EntityKind, Resolver } from '../open-data/resolve.ts';

export interface Candidate {
  slug: string;
  name: string;
  /** normalised spellings: slug, name, codes and aliases */
  keys: string[];
}

const cache = new WeakMap<Resolver, Map<EntityKind, Candidate[]>>();

/** Every entity of a kind with its spellings, in the resolver's order (cached per resolver, i.e. per build). */
export function candidates(resolver: Resolver, kind: EntityKind): Candidate[] {
  let perKind = cache.get(resolver);
  if (!perKind) cache.set(resolver, (perKind = new Map()));
  let list = perKind.get(kind);
  if (!list) {
    const bySlug = new Map<string, Candidate>();
    for (const a of resolver.aliases(kind)) {
      let c = bySlug.get(a.slug);
      if (!c) {
        const r = resolver.resolve(kind, a.slug);
        bySlug.set(a.slug, (c = { slug: a.slug, name: r.found ? r.entity.name : a.spelling, keys: [normalizeName(a.slug)] }));
      }
      const key = normalizeName(a.spelling);
      if (key && !c.keys.includes(key)) c.keys.push(key);
    }
    list = [...bySlug.values()];
    perKind.set(kind, list);
  }
  return list;
}

/** 0: a spelling starts with the typed text; 1: a word of a spelling does; 2: it occurs inside; -1: no match. */
function rank(c: Candidate, typed: string): number {
  let best = -1;
  for (const k of c.keys) {
    const r = k.startsWith(typed) ? 0 : k.includes(` ${typed}`) ? 1 : k.includes(typed) ? 2 : -1;
    if (r >= 0 && (best < 0 || r < best)) best = r;
  }
  return best;
}

/**
 * Completion values for `typed`: slugs (for URI template variables) or names (for prompt arguments, which
 * the tools resolve), every match, best first (the SDK sends the first 100 and reports the total and
 * `hasMore`).
 */
export function completeEntity(resolver: Resolver | undefined, kind: EntityKind, typed: string, as: 'slug' | 'name'): { values: string[]; total: number } {
  if (!resolver) return { values: [], total: 0 };
  const t = normalizeName(typed);
  const ranked: { c: Candidate; r: number }[] = [];
  for (const c of candidates(resolver, kind)) {
    const r = t === '' ? 0 : rank(c, t);
    if (r >= 0) ranked.push({ c, r });
  }
  ranked.sort((a, b) => a.r - b.r || a.c.name.localeCompare(b.c.name));
  const values = ranked.map(({ c }) => (as === 'slug' ? c.slug : c.name));
  return { values, total: ranked.length };
}
