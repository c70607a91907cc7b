/**
 * Canonical JSON: keys sorted at every level, so the same document always serialises to the same bytes.
 */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    // Long columns of numbers (private artifacts) need no copying, only a finiteness check.
    if (value.every((v) => typeof v === 'number' || v === null)) {
      for (const v of value) if (v !== null && !Number.isFinite(v)) throw new Error(`non-finite number in a document: ${v}`);
      return value;
    }
    return value.map(sortKeys);
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`non-finite number in a document: ${value}`);
  return value;
}

/** Public documents: sorted keys, two-space indent, trailing newline. */
export function canonicalJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/** Private artifacts: sorted keys, compact. */
export function compactJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value))}\n`;
}
