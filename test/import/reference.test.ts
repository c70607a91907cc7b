/**
 * `physpay reference specialties|states [--json]`: the names, slugs or codes and accepted spellings the
 * importers check against, named by their refusals of an unknown specialty or state.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { SPECIALTIES } from '../../build/db/reference/specialties.ts';
import { STATES } from '../../build/db/reference/states.ts';
import { openReportsDb } from '../../build/db/open.ts';
import { loadRefs, resolveSpecialty } from '../../build/import/refs.ts';

/** Start of each column in a table's header line (columns are separated by two or more spaces). */
function columnStarts(header: string): number[] {
  return [...header.matchAll(/(?:^|\s{2,})(\S)/g)].map((m) => m.index! + m[0].length - 1);
}

describe('physpay reference specialties', () => {
  it('prints an aligned table: slug, name, accepted spellings, one specialty a line', async () => {
    const r = await runCli(['reference', 'specialties']);
    expect(r.code).toBe(0);
    expect(r.err).toEqual([]);
    const [header, ...lines] = r.out;
    expect(header).toMatch(/^slug\s{2,}name\s{2,}SOC\s{2,}also accepted$/);
    const starts = columnStarts(header!);
    const rows = lines.slice(0, SPECIALTIES.length);
    expect(rows).toHaveLength(SPECIALTIES.length);
    for (const line of rows) {
      for (const s of starts.slice(1)) expect(line[s - 1], `column at ${s} in "${line}"`).toBe(' ');
    }
    const cardiology = rows.find((l) => l.startsWith('cardiology '))!;
    expect(cardiology.slice(starts[1]!)).toMatch(/^Cardiology\s/);
    expect(cardiology.slice(starts[3]!)).toBe('cardiologist, cardiovascular disease, general cardiology, cardio');
    // A note on how spellings are matched follows the table.
    expect(lines.slice(SPECIALTIES.length).join(' ')).toMatch(/letter case.*OB\/GYN/);
  });

  it('--json: every specialty with its slug, name, SOC code and spellings; each spelling resolves to it', async () => {
    const r = await runCli(['reference', 'specialties', '--json']);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    const doc = JSON.parse(r.out[0]!) as { specialties: { slug: string; name: string; soc_code: string; aliases: string[] }[]; matching: string };
    expect(doc.specialties).toHaveLength(SPECIALTIES.length);
    expect(doc.specialties.find((s) => s.slug === 'obstetrics-gynecology')).toEqual({
      slug: 'obstetrics-gynecology',
      name: 'Obstetrics and Gynecology',
      soc_code: '29-1218',
      aliases: ['ob gyn', 'obgyn', 'obstetrics', 'gynecology', 'obstetrician', 'gynecologist', 'ob'],
    });
    expect(doc.matching).toMatch(/letter case/);
    const db = openReportsDb(':memory:');
    try {
      const refs = loadRefs(db);
      for (const s of doc.specialties) for (const a of [s.slug, s.name, ...s.aliases]) expect(resolveSpecialty(refs, a)?.slug, a).toBe(s.slug);
    } finally {
      db.close();
    }
  });
});

describe('physpay reference states', () => {
  it('prints an aligned table: code, name, slug, region', async () => {
    const r = await runCli(['reference', 'states']);
    expect(r.code).toBe(0);
    const [header, ...lines] = r.out;
    expect(header).toMatch(/^code\s{2,}name\s{2,}slug\s{2,}region$/);
    const starts = columnStarts(header!);
    const rows = lines.slice(0, STATES.length);
    expect(rows.map((l) => l.slice(0, 2))).toEqual(STATES.map((s) => s.code));
    for (const line of rows) for (const s of starts.slice(1)) expect(line[s - 1]).toBe(' ');
    const dc = rows.find((l) => l.startsWith('DC '))!;
    expect(dc.slice(starts[1]!)).toMatch(/^District of Columbia\s+district-of-columbia\s+South$/);
    expect(lines.slice(STATES.length).join(' ')).toMatch(/two-letter code.*any letter case.*full name/);
  });

  it('--json: every state with code, name, slug and region', async () => {
    const r = await runCli(['reference', 'states', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out[0]!) as { states: { code: string; name: string; slug: string; region: string }[]; matching: string };
    expect(doc.states).toHaveLength(51);
    expect(doc.states.find((s) => s.code === 'NY')).toEqual({ code: 'NY', name: 'New York', slug: 'new-york', region: 'Northeast' });
    expect(doc.matching).toMatch(/two-letter code/);
  });

  it('refuses an unknown list with exit 2, naming the lists', async () => {
    const r = await runCli(['reference', 'hospitals']);
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/specialties.*states/);
  });

  it('needs no reports DB', async () => {
    const r = await runCli(['reference', 'states', '--json']);
    expect(r.code).toBe(0);
  });
});
