/**
 * How a typed pay amount is read (pure), in one place: the pages' pay box and offer form (PAY_AMOUNT_JS, the
 * browser port of parsePayAmount, compared with it on random text by test/pages/pay-check.test.ts) and the
 * /contribute form's amounts written with k or m (server/intake/form.ts).
 *
 * Spaces, "," and "$" are ignored; what is left is an optional minus sign, digits with at most one point, and
 * optionally one k (thousands) or m (millions), either case (a minus sign before a non-zero amount: negative): 300000, 300,000, $300,000, 300k, $300K, 1.2m,
 * $ 1,2m all read. Anything else (1e6, 1.350.000, 300kk, "three hundred") is invalid, never guessed. With k or
 * m the amount is rounded to the cent (1.15k is 1,150, not 1,149.9999...).
 */

export type PayAmount = { state: 'empty' } | { state: 'invalid' } | { state: 'negative' } | { state: 'ok'; x: number };

/** The multiplier of a suffix letter. */
const SCALE: Record<string, number> = { k: 1_000, m: 1_000_000 };

export function parsePayAmount(text: string): PayAmount {
  const s = String(text).trim().replace(/[ ,$]/g, '');
  if (!s) return { state: 'empty' };
  const m = /^(-?)([0-9]+[.]?[0-9]*|[.][0-9]+)([kKmM]?)$/.exec(s);
  if (!m) return { state: 'invalid' };
  const n = Number(m[1]! + m[2]!);
  if (!Number.isFinite(n)) return { state: 'invalid' };
  const x = m[3] ? Math.round(n * SCALE[m[3].toLowerCase()]! * 100) / 100 : n;
  if (!Number.isFinite(x)) return { state: 'invalid' };
  if (n < 0) return { state: 'negative' };
  return { state: 'ok', x: x === 0 ? 0 : x };
}

/**
 * parsePayAmount() for the pages' inline script, statement by statement (same steps, same arithmetic, so the
 * same answers). No backslashes and no "</" in here: it is inlined in a <script> through a template literal.
 */
export const PAY_AMOUNT_JS = `function parsePay(text){var s=String(text).trim().replace(/[ ,$]/g,'');
if(!s)return{state:'empty'};
var m=/^(-?)([0-9]+[.]?[0-9]*|[.][0-9]+)([kKmM]?)$/.exec(s);
if(!m)return{state:'invalid'};
var n=Number(m[1]+m[2]);if(!isFinite(n))return{state:'invalid'};
var x=m[3]?Math.round(n*(m[3].toLowerCase()==='k'?1000:1000000)*100)/100:n;
if(!isFinite(x))return{state:'invalid'};
if(n<0)return{state:'negative'};return{state:'ok',x:x===0?0:x}}`;
