/**
 * A specialty's precomputed cells kept as JSON text in one Buffer (outside the JS heap), each cell parsed
 * when a request asks for it (pure: no fs, no clock).
 *
 * Why: parsed, the cells of the 60,000-report demo are millions of small objects (28 MB of JSON, ~130 MB of
 * heap). Every major collection had to mark them all, on the same core as the requests, and the pauses
 * (up to ~80 ms) set the keyed API's p99. Packed, the heap holds one Buffer and one offset table per
 * specialty; a /benchmarks answer parses about a dozen cells of ~0.5 kB each (tens of microseconds).
 */
import type { BlsInfo, KeyedCell, KeyedSpecialtyArtifact } from '../../build/contract/keyed-artifacts.ts';

export class PackedSpecialty {
  private constructor(
    readonly slug: string,
    readonly name: string,
    readonly bls: BlsInfo,
    private readonly text: Buffer,
    /** cell key -> index into `bounds` (start, end pairs of byte offsets into `text`) */
    private readonly index: Map<string, number>,
    private readonly bounds: Uint32Array,
  ) {}

  static from(a: KeyedSpecialtyArtifact): PackedSpecialty {
    const keys = Object.keys(a.cells);
    const parts = keys.map((k) => Buffer.from(JSON.stringify(a.cells[k]), 'utf8'));
    const bounds = new Uint32Array(keys.length * 2);
    const index = new Map<string, number>();
    let at = 0;
    keys.forEach((k, i) => {
      index.set(k, i);
      bounds[2 * i] = at;
      at += parts[i]!.length;
      bounds[2 * i + 1] = at;
    });
    return new PackedSpecialty(a.slug, a.name, a.bls, Buffer.concat(parts, at), index, bounds);
  }

  /** A fresh copy of the cell (callers may keep or change it), or undefined when the build has no such cell. */
  cell(key: string): KeyedCell | undefined {
    const i = this.index.get(key);
    if (i === undefined) return undefined;
    return JSON.parse(this.text.toString('utf8', this.bounds[2 * i], this.bounds[2 * i + 1])) as KeyedCell;
  }

  get size(): number {
    return this.index.size;
  }
}
