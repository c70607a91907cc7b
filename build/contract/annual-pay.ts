/**
 * What counts as a year's total pay when someone asks where a pay falls: the one rule of the tool server
 * (evaluate_compensation, evaluate_offer, the evaluate_job_offer prompt) and the keyed API (/percentile-rank,
 * /offer-check). From MIN_ANNUAL_PAY to MAX_ANNUAL_PAY US dollars a year.
 *
 * Below the floor a figure is not a year's pay but thousands written without "k" (420 for $420k), an hourly
 * rate (150) or a daily locum rate (2,000). No physician's year of pay, part-time included, is that low (a
 * resident's first year is over $60,000), so such a figure is refused with a hint instead of being ranked
 * "below P10", which would be a wrong answer given with confidence.
 */

/** The smallest annual total pay taken, in dollars. */
export const MIN_ANNUAL_PAY = 10_000;
/** The largest annual total pay taken, in dollars (also every pay amount's maximum). */
export const MAX_ANNUAL_PAY = 100_000_000;

const dollars = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const usd = (v: number) => `$${dollars.format(v)}`;

/**
 * Why `value` (dollars) is not a year's total pay, as words that follow the figure ("is under $10,000: ..."),
 * or null when it is one. A value under 1,000 is read as thousands in the hint (420 -> 420000).
 */
export function annualPayIssue(value: number): string | null {
  if (value > MAX_ANNUAL_PAY) return `is over ${usd(MAX_ANNUAL_PAY)}, more than any year's pay`;
  if (value >= MIN_ANNUAL_PAY) return null;
  const thousands = value > 0 && value < 1_000 ? `; if you meant $${dollars.format(value)}k, give ${Math.round(value * 1_000)}` : '';
  return `is under ${usd(MIN_ANNUAL_PAY)}, too little for a year's total pay: give US dollars a year, not thousands or an hourly, daily or monthly rate${thousands}`;
}
