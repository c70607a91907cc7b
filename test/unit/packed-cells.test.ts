/**
 * PackedSpecialty (server/keyed/packed-cells.ts): every cell of a real build's specialty artifacts comes
 * back exactly as the artifact holds it, as a fresh copy, its summary equals the parsed cell's, and unknown
 * cells are undefined.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { KeyedSpecialtyArtifact } from '../../build/contract/keyed-artifacts.ts';
import { PackedSpecialty } from '../../server/keyed/packed-cells.ts';
import { summaryOf } from '../../server/keyed/benchmark.ts';

const work = useGoldenDir('packed');
let artifacts: KeyedSpecialtyArtifact[];

beforeAll(() => {
  const dir = join(work.dist, 'current', 'private', 'keyed', 'benchmarks');
  artifacts = readdirSync(dir).map((f) => KeyedSpecialtyArtifact.parse(JSON.parse(readFileSync(join(dir, f), 'utf8'))));
}, 120_000);

describe('PackedSpecialty', () => {
  it('returns every cell of every specialty exactly as the artifact has it', () => {
    expect(artifacts.length).toBeGreaterThan(10);
    let cells = 0;
    for (const a of artifacts) {
      const p = PackedSpecialty.from(a);
      expect([p.slug, p.name, p.bls]).toEqual([a.slug, a.name, a.bls]);
      expect(p.size).toBe(Object.keys(a.cells).length);
      for (const [k, c] of Object.entries(a.cells)) {
        expect(p.cell(k)).toEqual(c);
        expect(p.summary(k)).toEqual(summaryOf(c));
        cells++;
      }
    }
    expect(cells).toBeGreaterThan(1000);
  });

  it('answers undefined for a cell the build does not have, and a fresh copy each time', () => {
    const p = PackedSpecialty.from(artifacts[0]!);
    expect(p.cell('S:ZZ|*|*')).toBeUndefined();
    expect(p.cell('__proto__')).toBeUndefined();
    expect(p.summary('S:ZZ|*|*')).toBeUndefined();
    const k = Object.keys(artifacts[0]!.cells)[0]!;
    const one = p.cell(k)!;
    one.n = -1;
    expect(p.cell(k)!.n).toBe(artifacts[0]!.cells[k]!.n);
  });

  it('keeps non-ASCII text intact (byte offsets, not character offsets)', () => {
    const a = structuredClone(artifacts.find((x) => Object.values(x.cells).some((c) => c.sections?.by_experience.length))!);
    const k1 = Object.keys(a.cells).find((k) => a.cells[k]!.sections?.by_experience.length)!;
    const k2 = Object.keys(a.cells).find((k) => k !== k1)!;
    (a.cells[k1]!.sections!.by_experience[0] as { label: string }).label = 'Médecine générale — 5 ans ✓';
    const p = PackedSpecialty.from({ ...a, cells: { [k1]: a.cells[k1]!, 'é|ü|*': a.cells[k2]!, [k2]: a.cells[k2]! } });
    expect(p.cell(k1)).toEqual(a.cells[k1]);
    expect(p.cell(k1)!.sections!.by_experience[0]!.label).toBe('Médecine générale — 5 ans ✓');
    expect(p.cell('é|ü|*')).toEqual(a.cells[k2]);
    expect(p.cell(k2)).toEqual(a.cells[k2]);
  });
});
