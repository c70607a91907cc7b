/**
 * What an import of reports judges its approved rows against, read from the reports DB: each specialty's
 * reference level (read once: one row per specialty), and its Tukey fences and its $/wRVU (for the conversion
 * rate of a row's offer) from the approved reports before this import (each read for a specialty when its first
 * approved row comes, so a file without approved rows reads none).
 */
import type { Db } from '../db/open.ts';
import { specialtyFences, specialtyRates, specialtyReferences, type SpecialtyFences } from '../db/moderation.ts';
import type { ReferenceLevel } from '../compute/plausibility.ts';
import type { SpecialtyRate } from '../compute/offer-plausibility.ts';

export class PlausibilityLevels {
  private readonly slugs = new Map<number, string>();
  private readonly references = new Map<number, ReferenceLevel>();
  private readonly fences = new Map<number, SpecialtyFences | undefined>();
  private readonly rates = new Map<number, SpecialtyRate | undefined>();

  /** `batchId`: the import's own batch, whose reports the fences leave out. */
  constructor(
    private readonly db: Db,
    private readonly batchId: number,
  ) {
    const bySlug = specialtyReferences(db);
    for (const { id, slug } of db.prepare('SELECT id, slug FROM specialties').all() as { id: number; slug: string }[]) {
      this.slugs.set(id, slug);
      const level = bySlug.get(slug);
      if (level) this.references.set(id, level);
    }
  }

  slug(specialtyId: number): string {
    return this.slugs.get(specialtyId) ?? String(specialtyId);
  }

  reference(specialtyId: number): ReferenceLevel | undefined {
    return this.references.get(specialtyId);
  }

  /** Every specialty's reference level, by id (plain data, for a worker thread). */
  referencesById(): Map<number, ReferenceLevel> {
    return new Map(this.references);
  }

  fencesOf(specialtyId: number): SpecialtyFences | undefined {
    if (!this.fences.has(specialtyId)) {
      const slug = this.slug(specialtyId);
      this.fences.set(specialtyId, specialtyFences(this.db, [slug], { excludeBatch: this.batchId }).get(slug));
    }
    return this.fences.get(specialtyId);
  }

  /** The specialty's $/wRVU from its approved reports before this import (undefined below the floor). */
  rateOf(specialtyId: number): SpecialtyRate | undefined {
    if (!this.rates.has(specialtyId)) {
      const slug = this.slug(specialtyId);
      this.rates.set(specialtyId, specialtyRates(this.db, [slug], { excludeBatch: this.batchId }).get(slug));
    }
    return this.rates.get(specialtyId);
  }
}
