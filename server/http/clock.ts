/** The server's only source of time; tests inject their own. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

let lastDay = { start: 0, end: 0, text: '' };

/** The UTC day of `d` as YYYY-MM-DD (the string is reused while the day lasts: it is on every request). */
export function utcDay(d: Date): string {
  const t = d.getTime();
  if (t < lastDay.start || t >= lastDay.end) {
    const start = Math.floor(t / 86_400_000) * 86_400_000;
    lastDay = { start, end: start + 86_400_000, text: new Date(start).toISOString().slice(0, 10) };
  }
  return lastDay.text;
}
