/**
 * The streamed reader gives what one pass over the whole file gives, wherever the chunks are cut: the same
 * records or the same syntax error (CsvParser), the same text or the same encoding refusal at the same line
 * and column (Utf8Scanner, scanCsvFile), the same forbidden-character refusal (CsvPositionTracker).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useTempDir } from '../helpers/temp-dir.ts';
import { CsvParser, decodeCsvBytes, parseCsv, type CsvRecord } from '../../build/import/csv.ts';
import { Utf8Scanner, WIDE_SNIFF_BYTES } from '../../build/import/utf8.ts';
import { readCsvRecords, scanCsvFile } from '../../build/import/source.ts';
const tmp = useTempDir('stream');

/** Text made of what CSV cares about: quotes, commas, line breaks, multi-byte characters, a BOM. */
const csvText = fc
  .array(fc.constantFrom('a', 'b', '1', ',', '"', '""', '\n', '\r\n', '\r', ' ', 'é', '€', '😀', '\u2028', '\u0007', '\uFEFF'), { maxLength: 80 })
  .map((parts) => parts.join(''));

/** Cut points of a string or byte array of length n. */
const cuts = (n: number) => fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, n) }), { maxLength: 8 }).map((xs) => [...xs].sort((a, b) => a - b));

function pieces<T extends { slice(a: number, b?: number): T; length: number }>(whole: T, at: number[]): T[] {
  const out: T[] = [];
  let from = 0;
  for (const c of at) {
    out.push(whole.slice(from, c));
    from = c;
  }
  out.push(whole.slice(from));
  return out;
}

function outcome(fn: () => unknown): unknown {
  try {
    return { ok: fn() };
  } catch (err) {
    return { error: (err as Error).constructor.name, message: (err as Error).message };
  }
}

describe('CsvParser in pieces', () => {
  it('gives the records or the error of parseCsv on the whole text, for any cut', () => {
    fc.assert(
      fc.property(
        csvText.chain((t) => fc.tuple(fc.constant(t), cuts(t.length))),
        ([text, at]) => {
          const whole = outcome(() => parseCsv(text));
          const streamed = outcome(() => {
            const records: CsvRecord[] = [];
            const parser = new CsvParser((r) => records.push(r));
            for (const p of pieces(text, at)) parser.push(p);
            parser.end();
            return records;
          });
          expect(streamed).toEqual(whole);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

/** Bytes with valid and broken UTF-8, CRs and NULs. */
const someBytes = fc
  .array(
    fc.oneof(
      fc.constantFrom(...[0x61, 0x2c, 0x0a, 0x0d, 0x22, 0x00].map((b) => [b])),
      fc.constantFrom([0xc3, 0xa9], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80], [0xe9], [0x93], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xef, 0xbb, 0xbf]),
    ),
    { maxLength: 60 },
  )
  .map((xs) => Uint8Array.from(xs.flat()));

/**
 * The scanner holds its first chunk back until it has WIDE_SNIFF_BYTES bytes (to recognise UTF-16/32), so
 * the cases start with a line of that many ASCII bytes and are cut after it.
 */
const PAD = Uint8Array.from(Buffer.from(`${'p'.repeat(WIDE_SNIFF_BYTES)}\n`));
const padded = (b: Uint8Array) => Uint8Array.from(Buffer.concat([PAD, b]));

describe('Utf8Scanner in chunks', () => {
  it('gives the text or the fault of one pass over the whole bytes, for any cut', () => {
    fc.assert(
      fc.property(
        someBytes.chain((b) => fc.tuple(fc.constant(b), cuts(b.length))),
        ([tail, at]) => {
          const bytes = padded(tail);
          const whole = new Utf8Scanner().push(bytes, true);
          const scanner = new Utf8Scanner();
          const parts = pieces(bytes, [PAD.length, ...at.map((c) => c + PAD.length)]);
          let text = '';
          let streamed: unknown;
          for (const [i, p] of parts.entries()) {
            const r = scanner.push(p, i === parts.length - 1);
            if (!('text' in r)) {
              streamed = r;
              break;
            }
            text += r.text;
          }
          expect((streamed ?? { text }) as object).toEqual(whole);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('scanCsvFile and readCsvRecords', () => {
  it('refuse a file exactly as decodeCsvBytes does, and read the records parseCsv reads, with tiny chunks', () => {
    let n = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          someBytes.map(padded),
          csvText.map((t) => Uint8Array.from(Buffer.from(`specialty,state\n${t}`))),
          csvText.map((t) => padded(Uint8Array.from(Buffer.from(`specialty,state\n${t}`)))),
        ),
        fc.integer({ min: 1, max: 9 }),
        (bytes, chunk) => {
          const path = join(tmp.path, `f${n++}.csv`);
          writeFileSync(path, bytes);
          const whole = outcome(() => decodeCsvBytes(bytes, 'f.csv'));
          const streamed = outcome(() => scanCsvFile(path, 'f.csv', undefined, chunk));
          if ('error' in (whole as object)) {
            expect(streamed).toEqual(whole);
            return;
          }
          expect(streamed).toMatchObject({ ok: { bytes: bytes.length } });
          const sha256 = (streamed as { ok: { sha256: string } }).ok.sha256;
          const records = outcome(() => {
            const out: CsvRecord[] = [];
            readCsvRecords(path, sha256, (r) => out.push(r), undefined, chunk);
            return out;
          });
          expect(records).toEqual(outcome(() => parseCsv((whole as { ok: string }).ok)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('refuses a file that changed after it was scanned', () => {
    const path = join(tmp.path, 'changed.csv');
    writeFileSync(path, 'a,b\n1,2\n');
    const { sha256 } = scanCsvFile(path, 'changed.csv');
    writeFileSync(path, 'a,b\n1,3\n');
    expect(() => readCsvRecords(path, sha256, () => {})).toThrow(/changed while it was being imported/);
  });
});
