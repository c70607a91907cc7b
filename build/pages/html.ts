/**
 * Escaping and number formatting for the public pages (pure, locale-independent: no ICU, so the bytes
 * are the same on every Node build).
 *
 * Every piece of text that reaches a page goes through `esc` (text and double-quoted attribute values
 * alike), so names, URLs and notices can never open a tag or close an attribute.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape text for an HTML text node or a double-quoted attribute value. */
export function esc(value: string | number | boolean): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** ` name="value"` pairs (escaped), skipping undefined and false; `true` writes the bare attribute value "true". */
export function attrs(a: Record<string, string | number | boolean | undefined | null>): string {
  let out = '';
  for (const [k, v] of Object.entries(a)) {
    if (v === undefined || v === null || v === false) continue;
    out += ` ${k}="${esc(v)}"`;
  }
  return out;
}

/** Digits of a non-negative integer grouped by thousands: 1234567 -> "1,234,567". */
function group(intDigits: string): string {
  return intDigits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A whole number with thousands separators. */
export function fmtCount(n: number): string {
  const sign = n < 0 ? '-' : '';
  return sign + group(String(Math.abs(Math.round(n))));
}

/** US dollars: whole dollars ("$273,100"), or cents when `cents` ("$54.67"). */
export function fmtMoney(v: number, cents = false): string {
  const sign = v < 0 ? '-' : '';
  const a = Math.abs(v);
  if (!cents) return `${sign}$${group(String(Math.round(a)))}`;
  const fixed = a.toFixed(2);
  const [i, f] = fixed.split('.') as [string, string];
  return `${sign}$${group(i)}.${f}`;
}

/** A $/wRVU figure: cents unless it is a whole dollar (figures from 24 or fewer reports are whole dollars). */
export function fmtRate(v: number): string {
  return fmtMoney(v, !Number.isInteger(v));
}

/** Signed percent with one decimal: "+7.3%", "-2.0%", "0.0%". */
export function fmtPct(v: number): string {
  const s = Math.abs(v).toFixed(1);
  return `${v > 0 ? '+' : v < 0 ? '-' : ''}${s}%`;
}

/** Compact dollars for chart labels where space is short: "$273k", "$1.25M". */
export function fmtMoneyShort(v: number): string {
  if (Math.abs(v) >= 1_000_000) return `$${trimZeros((v / 1_000_000).toFixed(2))}M`;
  if (Math.abs(v) >= 10_000) return `$${Math.round(v / 1000)}k`;
  return fmtMoney(v);
}

function trimZeros(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** The words a page shows instead of a withheld figure. */
export function withheldText(floor: number): string {
  return `withheld (fewer than ${floor} reports)`;
}
