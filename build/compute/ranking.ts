/** Rankings with shared ranks on ties (1, 2, 2, 4), highest value first. Pure. */
export function rankHighestFirst<T>(items: T[], value: (x: T) => number, tieOrder: (a: T, b: T) => number): { rank: number; item: T }[] {
  const sorted = [...items].sort((a, b) => value(b) - value(a) || tieOrder(a, b));
  const out: { rank: number; item: T }[] = [];
  sorted.forEach((item, i) => {
    const rank = i > 0 && value(sorted[i - 1]!) === value(item) ? out[i - 1]!.rank : i + 1;
    out.push({ rank, item });
  });
  return out;
}
