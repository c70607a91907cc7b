/**
 * The keyed API's view of one loaded build: specialty artifacts (cells, packed) and per-report columns read on
 * first use (verified against the manifest) and kept for the life of the build, plus a cache of computed
 * Enterprise responses. A new build gets a new view, so nothing stale survives a swap.
 */
import type { LoadedBuild } from '../builds/loaded-build.ts';
import { keyedPaths, KeyedReportsArtifact, type KeyedSpecialtyArtifact } from '../../build/contract/keyed-artifacts.ts';
import { PackedSpecialty } from './packed-cells.ts';
import { keyedColumnsFromArtifact, type KeyedColumns } from '../../build/compute/keyed.ts';

const views = new WeakMap<LoadedBuild, KeyedBuildData>();

export class KeyedBuildData {
  private specialties = new Map<string, Promise<PackedSpecialty>>();
  private columns = new Map<string, Promise<KeyedColumns>>();
  /** computed responses by normalised query (Enterprise year ranges), bounded */
  readonly computed = new Map<string, unknown>();

  constructor(readonly build: LoadedBuild) {}

  static of(build: LoadedBuild): KeyedBuildData {
    let v = views.get(build);
    if (!v) views.set(build, (v = new KeyedBuildData(build)));
    return v;
  }

  /** The specialty's cells, packed (packed-cells.ts) so they stay off the JS heap. */
  specialty(slug: string): Promise<PackedSpecialty> {
    let p = this.specialties.get(slug);
    if (!p) {
      p = this.build.readPrivate(keyedPaths.specialty(slug)).then((b) => PackedSpecialty.from(JSON.parse(b.toString('utf8')) as KeyedSpecialtyArtifact));
      p.catch(() => this.specialties.delete(slug));
      this.specialties.set(slug, p);
    }
    return p;
  }

  reportColumns(slug: string): Promise<KeyedColumns> {
    let p = this.columns.get(slug);
    if (!p) {
      p = this.build
        .readPrivate(keyedPaths.reports(slug))
        .then((b) => keyedColumnsFromArtifact(KeyedReportsArtifact.parse(JSON.parse(b.toString('utf8')))));
      p.catch(() => this.columns.delete(slug));
      this.columns.set(slug, p);
    }
    return p;
  }

  remember(key: string, value: unknown): void {
    if (this.computed.size >= 2000) this.computed.delete(this.computed.keys().next().value!);
    this.computed.set(key, value);
  }

  /** Load every specialty's cells now (after a swap), so first requests do not wait. */
  async preload(): Promise<void> {
    for (const s of this.build.keyedIndex.specialties) await this.specialty(s.slug);
  }
}
