/**
 * Resolving user-typed slugs (pure): canonical slugs, common spellings and aliases, two-letter state
 * codes, full names, any letter case. Unknown input gets up to 5 close matches, best first.
 */
import { normalizeName } from '../../build/contract/names.ts';
import type { KeyedIndex } from '../../build/contract/keyed-artifacts.ts';
import { RELATED_TERMS } from '../../build/contract/related-terms.ts';

export type EntityKind = 'specialty' | 'state' | 'institution';

export interface Entity {
  slug: string;
  name: string;
}

export type Resolution = { found: true; entity: Entity; canonical: boolean } | { found: false; suggestions: Entity[] };

interface Table {
  entities: Entity[];
  /** normalised spelling -> entity */
  byKey: Map<string, Entity>;
  /** (spelling, entity) pairs for close-match search */
  spellings: { key: string; entity: Entity }[];
  /** related words (RELATED_TERMS): an exact match suggests the entity, never resolves to it */
  related: Map<string, Entity[]>;
  /** every spelling as given (name, code, alias; not the slug) that resolves to its entity */
  aliases: Alias[];
}

/** A known spelling of an entity other than its slug ("TX", "Texas", "ob gyn") and the slug it resolves to. */
export interface Alias {
  spelling: string;
  slug: string;
}

export interface Resolver {
  resolve(kind: EntityKind, raw: string): Resolution;
  /**
   * The known spellings of a kind's entities, as given (codes in their case, names, aliases), each with the
   * slug `resolve` maps it to; a spelling that another entity claims first is listed for that one only.
   */
  aliases(kind: EntityKind): readonly Alias[];
}

function table(entries: { entity: Entity; spellings: string[]; related?: readonly string[] }[]): Table {
  const byKey = new Map<string, Entity>();
  const spellings: { key: string; entity: Entity }[] = [];
  const related = new Map<string, Entity[]>();
  for (const { entity, related: terms = [] } of entries) {
    for (const t of terms) {
      const key = normalizeName(t);
      const list = related.get(key) ?? [];
      if (!list.includes(entity)) list.push(entity);
      related.set(key, list);
    }
  }
  for (const { entity, spellings: sp } of entries) {
    for (const s of [entity.slug, entity.name, ...sp]) {
      const key = normalizeName(s);
      if (!key) continue;
      if (!byKey.has(key)) byKey.set(key, entity);
      spellings.push({ key, entity });
    }
  }
  const aliases: Alias[] = [];
  for (const { entity, spellings: sp } of entries) {
    for (const spelling of new Set([entity.name, ...sp])) {
      if (spelling !== entity.slug && byKey.get(normalizeName(spelling)) === entity) aliases.push({ spelling, slug: entity.slug });
    }
  }
  return { entities: entries.map((e) => e.entity), byKey, spellings, related, aliases };
}

/** Levenshtein distance, bounded: gives up (returns max + 1) past `max`. */
export function editDistance(a: string, b: string, max = 64): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]!);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

function similarity(query: string, key: string): number {
  if (!query || !key) return 0;
  if (key === query) return 1;
  let score = 1 - editDistance(query, key, 32) / Math.max(query.length, key.length);
  const compactQ = query.replace(/ /g, '');
  const compactK = key.replace(/ /g, '');
  if (compactK.startsWith(compactQ) || compactQ.startsWith(compactK)) score = Math.max(score, 0.75);
  else if (compactQ.length >= 3 && compactK.includes(compactQ)) score = Math.max(score, 0.65);
  // Shared words ("cardio surgery" ~ "cardiothoracic surgery").
  const qw = new Set(query.split(' '));
  const shared = key.split(' ').filter((w) => w.length > 2 && qw.has(w)).length;
  if (shared) score = Math.max(score, 0.45 + 0.1 * shared);
  return score;
}

export function closeMatches(t: Table, raw: string, limit = 5): Entity[] {
  const query = normalizeName(raw).slice(0, 80);
  const best = new Map<Entity, number>();
  // a related word ("eye", "crna") or one word of the query that is one ("pediatric eye doctor") ranks first
  for (const word of [query, ...query.split(' ')]) {
    for (const entity of t.related.get(word) ?? []) best.set(entity, Math.max(best.get(entity) ?? 0, word === query ? 0.95 : 0.6));
  }
  for (const { key, entity } of t.spellings) {
    const s = similarity(query, key);
    if (s > (best.get(entity) ?? 0)) best.set(entity, s);
  }
  return [...best.entries()]
    .filter(([, s]) => s >= 0.4)
    .sort((a, b) => b[1] - a[1] || a[0].slug.localeCompare(b[0].slug))
    .slice(0, limit)
    .map(([e]) => e);
}

export function buildResolver(
  index: Pick<KeyedIndex, 'specialties' | 'states'>,
  institutions: Entity[],
): Resolver {
  const tables: Record<EntityKind, Table> = {
    specialty: table(index.specialties.map((s) => ({ entity: { slug: s.slug, name: s.name }, spellings: s.aliases, related: RELATED_TERMS[s.slug] }))),
    state: table(index.states.map((s) => ({ entity: { slug: s.slug, name: s.name }, spellings: [s.code] }))),
    institution: table(institutions.map((i) => ({ entity: i, spellings: [] }))),
  };
  return {
    resolve(kind, raw) {
      const t = tables[kind];
      const hit = t.byKey.get(normalizeName(raw));
      if (hit) return { found: true, entity: hit, canonical: raw === hit.slug };
      return { found: false, suggestions: closeMatches(t, raw) };
    },
    aliases: (kind) => tables[kind].aliases,
  };
}
