/**
 * The publication-floor audit for the public files that are not JSON feeds (pure): HTML pages and CSV
 * downloads. Like audit.ts it does not trust the code that wrote them: it reads the figures back out of
 * the finished bytes, rebuilds the documents they claim to show, and runs the same auditDocument over them.
 *
 *  - Pages: every figure element names its JSON path (`data-field`) and value (`data-value`) inside a
 *    section naming its feed (`data-feed`). The page must be well-formed (build/pages/parse.ts); every
 *    figure must sit in a feed section, be shown with its n, and have one value wherever it appears.
 *  - CSV: RFC 4180 with a header; rows of specialties.csv and states.csv are audited like the entries
 *    of specialties.json and states.json (floor 5, P10/P90 15, rounding, withheld => empty n), and rows of
 *    specialty-states.csv like a specialty in a state (floor 3).
 */
import { auditDocument } from './audit.ts';
import { schemaForPath } from '../contract/artifacts.ts';
import type { FeedKind } from '../contract/open-feeds.ts';
import { closest, elements, parseHtml } from '../pages/parse.ts';
import { parseCsv } from '../import/csv.ts';

const FIGURES = ['median', 'mean', 'p10', 'p25', 'p75', 'p90'];

/** Set `value` at a JSON path like `top_states[2].median` inside `root`. */
export function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let node: Record<string, unknown> | unknown[] = root;
  parts.forEach((raw, k) => {
    const key: string | number = raw.startsWith('[') ? Number(raw.slice(1, -1)) : raw;
    const last = k === parts.length - 1;
    const container = node as Record<string | number, unknown>;
    if (last) {
      container[key] = value;
      return;
    }
    if (container[key] === undefined) container[key] = parts[k + 1]!.startsWith('[') ? [] : {};
    node = container[key] as Record<string, unknown>;
  });
}

/** The feed kind of a feed URL (by its path from /data/api/v1/ on, so any base URL works). */
export function feedKindOfUrl(url: string): FeedKind | undefined {
  const at = url.indexOf('/data/api/v1/');
  if (at < 0) return undefined;
  return schemaForPath(`public${url.slice(at)}`)?.feed;
}

/** The figures a page shows, per feed URL: path -> value (null for withheld / not available). */
export function pageFigures(html: string): { errors: string[]; byFeed: Map<string, Map<string, number | string | null>> } {
  const { root, errors } = parseHtml(html);
  const byFeed = new Map<string, Map<string, number | string | null>>();
  if (!root) return { errors, byFeed };
  for (const el of elements(root)) {
    const field = el.attrs['data-field'];
    if (field === undefined) continue;
    const section = closest(el, 'data-feed');
    if (!section) {
      errors.push(`line ${el.line}: figure ${field} is not inside an element naming its feed (data-feed)`);
      continue;
    }
    const raw = el.attrs['data-value'];
    if (raw === undefined) continue; // a text field (as_of, attribution, notice): checked by the tests, not a figure
    let value: number | string | null;
    if (raw === 'withheld' || raw === 'null') value = null;
    else if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/.test(raw)) value = Number(raw);
    else value = raw;
    const feed = section.attrs['data-feed']!;
    let m = byFeed.get(feed);
    if (!m) byFeed.set(feed, (m = new Map()));
    if (m.has(field) && m.get(field) !== value) errors.push(`line ${el.line}: ${field} of ${feed} shown as ${String(m.get(field))} and as ${String(value)}`);
    m.set(field, value);
  }
  return { errors, byFeed };
}

/** Problems with one HTML page of the public tree (empty when it is fine). */
export function auditPage(path: string, html: string): string[] {
  const { errors, byFeed } = pageFigures(html);
  const problems = errors.map((e) => `${path}: ${e}`);
  for (const [feed, figures] of byFeed) {
    const kind = feedKindOfUrl(feed);
    if (!kind) {
      problems.push(`${path}: figures of ${feed}, which is not a feed of this build`);
      continue;
    }
    const doc: Record<string, unknown> = {};
    for (const [field, value] of figures) setPath(doc, field, value);
    for (const v of auditDocument(kind, doc)) if (v.path !== 'notice') problems.push(`${path}: ${feed}: ${v.path || '(root)'}: ${v.problem}`);
    if (kind !== 'institution' && kind !== 'institutions') {
      const visit = (node: unknown, at: string) => {
        if (Array.isArray(node)) return node.forEach((v, i) => visit(v, `${at}[${i}]`));
        if (node === null || typeof node !== 'object') return;
        const o = node as Record<string, unknown>;
        // the count behind the figures: n, or n_with for the whole offer's items (the reports that have it)
        if (FIGURES.some((k) => k in o) && !('n' in o) && !('n_with' in o)) problems.push(`${path}: ${feed}: ${at || '(root)'}: figures shown without their n`);
        for (const [k, v] of Object.entries(o)) visit(v, at ? `${at}.${k}` : k);
      };
      visit(doc, '');
    }
  }
  return problems;
}

const CSV_KIND: Record<string, FeedKind> = {
  'public/data/api/v1/specialties.csv': 'specialties',
  'public/data/api/v1/states.csv': 'states',
  'public/data/api/v1/specialty-states.csv': 'specialtyState',
};

/** Problems with one CSV download of the public tree (empty when it is fine). */
export function auditCsv(path: string, text: string): string[] {
  let records;
  try {
    records = parseCsv(text);
  } catch (err) {
    return [`${path}: not RFC 4180 CSV (${(err as Error).message})`];
  }
  const problems: string[] = [];
  if (!text.endsWith('\r\n')) problems.push(`${path}: the last record does not end in CRLF`);
  const header = records[0]?.fields;
  if (!header || header.length === 0) return [`${path}: no header row`];
  if (new Set(header).size !== header.length) problems.push(`${path}: a column name appears twice in the header`);
  for (const col of ['license', 'license_url', 'citation_url', 'as_of']) if (!header.includes(col)) problems.push(`${path}: no ${col} column`);
  const rows = records.slice(1);
  for (const r of rows) if (r.fields.length !== header.length) problems.push(`${path}: line ${r.line} has ${r.fields.length} fields, the header ${header.length}`);
  const kind = CSV_KIND[path];
  if (!kind) return problems;
  const num = (s: string | undefined) => (s === undefined || s === '' ? null : Number(s));
  const list = rows.map((r) => {
    const o: Record<string, unknown> = {};
    header.forEach((h, k) => {
      const s = r.fields[k];
      if (h === 'n' || FIGURES.includes(h)) o[h] = num(s);
      else if (h === 'withheld' || h === 'rounded') o[h] = s === 'true';
    });
    if (o.withheld === true && o.median !== null) problems.push(`${path}: line ${r.line} is withheld but shows a median`);
    if (o.withheld !== true && o.median === null) problems.push(`${path}: line ${r.line} has no median but is not marked withheld`);
    return o;
  });
  for (const v of auditDocument(kind, { rows: list })) problems.push(`${path}: ${v.path.replace(/^rows\[(\d+)\]/, (_, i: string) => `line ${rows[Number(i)]?.line ?? '?'}`)}: ${v.problem}`);
  return problems;
}
