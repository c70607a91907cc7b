/** The server's only source of time; tests inject their own. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}
