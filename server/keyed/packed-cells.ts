/**
 * A specialty's precomputed cells kept as JSON text in one Buffer (outside the JS heap), each cell parsed
 * when a request asks for it (pure: no fs, no clock).
 *
 * Why: parsed, the cells of the 60,000-report demo are millions of small objects (28 MB of JSON, ~130 MB of
 * heap). Every major collection had to mark them all, on the same core as the requests, and the pauses
 * (up to ~80 ms) set the keyed API's p99. Packed, the heap holds one Buffer and one offset table per
 * specialty; a /benchmarks answer parses only its headline cell, and reads the size and main figures of
 * the others (scopes, breakdown rows) from a Float64Array.
 */
import type { BlsInfo, KeyedCell, KeyedSpecialtyArtifact } from '../../build/contract/keyed-artifacts.ts';

/** Per cell, in `figures`: n, p10, p25, p50, p75, p90, mean (NaN for the figures of a cell that has none, and for P10/P90 below 15 reports). */
const F = 7;

export class PackedSpecialty {
  private constructor(
    readonly slug: string,
    readonly name: string,
    readonly bls: BlsInfo,
    private readonly text: Buffer,
    /** cell key -> index into `bounds` (start, end pairs of byte offsets into `text`) */
    private readonly index: Map<string, number>,
    private readonly bounds: Uint32Array,
    private readonly figures: Float64Array,
  ) {}

  static from(a: KeyedSpecialtyArtifact): PackedSpecialty {
    const keys = Object.keys(a.cells);
    const parts = keys.map((k) => Buffer.from(JSON.stringify(a.cells[k]), 'utf8'));
    const bounds = new Uint32Array(keys.length * 2);
    const figures = new Float64Array(keys.length * F).fill(NaN);
    const index = new Map<string, number>();
    let at = 0;
    keys.forEach((k, i) => {
      index.set(k, i);
      bounds[2 * i] = at;
      at += parts[i]!.length;
      bounds[2 * i + 1] = at;
      const c = a.cells[k]!;
      figures[F * i] = c.n;
      if (c.figures) {
        const p = c.figures.percentiles;
        figures.set([p.p10 ?? NaN, p.p25, p.p50, p.p75, p.p90 ?? NaN, c.figures.mean], F * i + 1);
      }
    });
    return new PackedSpecialty(a.slug, a.name, a.bls, Buffer.concat(parts, at), index, bounds, figures);
  }

  /** A fresh copy of the cell (callers may keep or change it), or undefined when the build has no such cell. */
  cell(key: string): KeyedCell | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    return JSON.parse(this.text.toString('utf8', this.bounds[2 * i], this.bounds[2 * i + 1])) as KeyedCell;
  }

  /** The cell's size and main figures without parsing it (equal to the parsed cell's), or undefined. */
  summary(key: string): { n: number; percentiles: { p10: number | null; p25: number; p50: number; p75: number; p90: number | null } | null; mean: number | null } | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    const f = this.figures;
    const o = F * i;
    if (Number.isNaN(f[o + 2])) return { n: f[o]!, percentiles: null, mean: null };
    const tail = (v: number) => (Number.isNaN(v) ? null : v); // P10 and P90 are null below 15 reports
    return { n: f[o]!, percentiles: { p10: tail(f[o + 1]!), p25: f[o + 2]!, p50: f[o + 3]!, p75: f[o + 4]!, p90: tail(f[o + 5]!) }, mean: f[o + 6]! };
  }

  get size(): number {
    return this.index.size;
  }
}
