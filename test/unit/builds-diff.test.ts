import { describe, expect, it } from 'vitest';
import { diffBuilds, diffLines, type BuildSide } from '../../build/compute/builds-diff.ts';

const summary = (medians: Record<string, number>, counts: Record<string, number>, reports: number): BuildSide['summary'] => ({
  build_id: 'x', created_at: '', build_date: '', base_url: '', publisher: '', synthetic: false, data_as_of: '', reports_used: reports,
  specialties_published: Object.keys(medians).length, medians, counts, files: 0, bytes: 0, forced: false,
});
const file = (content: string, figures?: string) => ({ sha256: content, bytes: 1, content_type: 'application/json', content_hash: content, ...(figures ? { figures_hash: figures } : {}) });

describe('builds diff', () => {
  it('files added, removed and changed in their figures (a new release label alone is not a change); medians that moved, largest first', () => {
    const a: BuildSide = { id: 'A', summary: summary({ cardiology: 500_000, 'family-medicine': 280_000 }, { cardiology: 40, 'family-medicine': 80, genetics: 3 }, 1000), files: { 'p/a.json': file('1', 'f1'), 'p/b.json': file('2', 'f2'), 'p/gone.json': file('3') } };
    const b: BuildSide = { id: 'B', summary: summary({ cardiology: 400_000, 'family-medicine': 281_400 }, { cardiology: 80, 'family-medicine': 80, genetics: 3 }, 1040), files: { 'p/a.json': file('1b', 'f1'), 'p/b.json': file('2b', 'f2b'), 'p/new.json': file('4') } };
    const d = diffBuilds(a, b);
    expect(d.files).toEqual({ added: ['p/new.json'], removed: ['p/gone.json'], changed: ['p/b.json'], unchanged: 1 });
    expect(d.figures.map((f) => [f.specialty, f.change])).toEqual([['cardiology', -0.2], ['family-medicine', 0.005]]);
    expect(diffLines(d)).toEqual([
      'A -> B: reports used 1,000 -> 1,040; files 1 added, 1 removed, 1 changed, 1 unchanged; 2 specialties with a national median or n that moved',
      '  cardiology: median $500,000 -> $400,000 (-20.0%), n 40 -> 80',
      '  family-medicine: median $280,000 -> $281,400 (+0.5%), n 80 -> 80',
      '  added p/new.json',
      '  removed p/gone.json',
    ]);
  });
});
