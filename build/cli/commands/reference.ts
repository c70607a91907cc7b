/**
 * `physpay reference specialties|states [--json]`: the specialties and states the importers accept, with
 * their slugs or codes and the spellings matched (the reference data every reports DB is created with,
 * build/db/reference/). Refusals of an unknown specialty or state name this command. Needs no DB.
 */
import type { Command } from 'commander';
import { SPECIALTIES } from '../../db/reference/specialties.ts';
import { STATES } from '../../db/reference/states.ts';
import { slugify } from '../../contract/names.ts';
import { CliError, type CliIo } from '../io.ts';

const LISTS = ['specialties', 'states'] as const;
type List = (typeof LISTS)[number];

const SPECIALTY_MATCHING =
  'A specialty is matched by its slug, name or any spelling listed, ignoring letter case, accents and punctuation ("&" reads as "and"): OB/GYN, ob-gyn and Ob Gyn are the same spelling.';
const STATE_MATCHING =
  'Reports and institutions files take the two-letter code (in any letter case); cost-of-living files take the code or the full name (letter case and punctuation ignored).';

/** Aligned columns, two spaces apart, the last one unpadded (it may be long). */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}

function specialties(json: boolean): string[] {
  const list = SPECIALTIES.map((s) => ({ slug: s.slug, name: s.name, soc_code: s.soc, aliases: [...s.aliases] }));
  if (json) return [JSON.stringify({ specialties: list, matching: SPECIALTY_MATCHING })];
  return [
    ...table(['slug', 'name', 'SOC', 'also accepted'], list.map((s) => [s.slug, s.name, s.soc_code, s.aliases.join(', ')])),
    '',
    SPECIALTY_MATCHING,
  ];
}

function states(json: boolean): string[] {
  const list = STATES.map((s) => ({ code: s.code, name: s.name, slug: slugify(s.name), region: s.region }));
  if (json) return [JSON.stringify({ states: list, matching: STATE_MATCHING })];
  return [...table(['code', 'name', 'slug', 'region'], list.map((s) => [s.code, s.name, s.slug, s.region])), '', STATE_MATCHING];
}

export function registerReferenceCommand(program: Command, io: CliIo): void {
  program
    .command('reference')
    .description('list the specialties or states the importers accept: names, slugs or codes, and accepted spellings')
    .argument('<list>', `${LISTS.join(' or ')}`)
    .option('--json', 'print one JSON object: {specialties: [{slug, name, soc_code, aliases}], matching} or {states: [{code, name, slug, region}], matching}')
    .action((list: string, opts: { json?: boolean }) => {
      if (!(LISTS as readonly string[]).includes(list)) {
        throw new CliError(`<list> must be ${LISTS.join(' or ')} (got ${JSON.stringify(list)})`, 2);
      }
      const lines = (list as List) === 'specialties' ? specialties(Boolean(opts.json)) : states(Boolean(opts.json));
      for (const line of lines) io.out(line);
    });
}
