/**
 * Import batch ids as an operator reads them: runs of consecutive ids joined ("1-4, 7, 9-10"), and what one
 * build holds that another does not. Pure.
 */
export function batchRanges(ids: readonly number[]): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j === i ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j;
  }
  return parts.join(', ');
}

/** The ids in `a` that are not in `b`. */
export function batchesNotIn(a: readonly number[], b: readonly number[]): number[] {
  const other = new Set(b);
  return a.filter((id) => !other.has(id));
}
