/**
 * Name normalisation shared by everything that resolves a user-typed specialty, state or institution
 * (importers, the open-data slug resolver, the keyed API, the tool server). Pure.
 */

/** "OB/GYN" -> "ob gyn", "PM&R" -> "pm and r", "  Family-Medicine " -> "family medicine". */
export function normalizeName(input: string): string {
  return input
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['\u2019]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** URL slug: "St. Luke's Medical Center" -> "st-lukes-medical-center". */
export function slugify(input: string): string {
  return normalizeName(input).replace(/ /g, '-');
}
