/**
 * The build's precompressed variants (build/emit/precompress.ts): a gzip written with its access dates in
 * stored blocks is the gzip of the text on any later day once re-dated, and content codings negotiate as
 * RFC 9110 asks (server/http/content-coding.ts).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { crc32 as zlibCrc32, gunzipSync, gzipSync } from 'node:zlib';
import { countOf, crc32, gzipWithTokens, isCompressible, redateGzip, splitGzip } from '../../build/emit/precompress.ts';
import { accessDateToken } from '../../build/contract/manifest.ts';
import { negotiateCoding } from '../../server/http/content-coding.ts';

const day = fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const token = (d: string) => Buffer.from(accessDateToken(d));

describe('gzip with re-datable access dates', () => {
  it('re-dated to any day, it unzips to the text with that day filled in (random texts, 0-3 dates)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 400 }), { minLength: 1, maxLength: 4 }), day, day, (pieces, built, served) => {
        const text = (d: string) => Buffer.from(pieces.join(accessDateToken(d)));
        const gz = gzipWithTokens(text(built), token(built));
        expect(gunzipSync(gz).equals(text(built))).toBe(true);
        const parts = splitGzip(gz, token(built), pieces.length - 1);
        expect(parts).not.toBeNull();
        const redated = redateGzip(parts!, token(served), text(served));
        expect(gunzipSync(redated).equals(text(served))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('is an ordinary gzip member for a text without a date, about as small as zlib makes it', () => {
    const text = Buffer.from('specialty,state,median\n'.repeat(2000));
    const gz = gzipWithTokens(text, token('2026-11-16'));
    expect(gunzipSync(gz).equals(text)).toBe(true);
    expect(gz.length).toBeLessThan(200);
  });

  it('costs only the stored dates against one deflate of a dated page', () => {
    const page = Buffer.from(`<p>${'Median total pay $312,000 (n = 740). '.repeat(300)}accessed 2026-11-16). Licensed</p>${'<li>footer link</li>'.repeat(200)}`);
    const gz = gzipWithTokens(page, token('2026-11-16'));
    expect(countOf(gz, token('2026-11-16'))).toBe(1);
    // two independent pieces and a stored date: within 100 bytes of an ordinary gzip
    expect(gz.length).toBeLessThan(gzipSync(page, { level: 9 }).length + 100);
  });

  it('refuses to split a gzip whose token count does not match the text', () => {
    const gz = gzipWithTokens(Buffer.from('a accessed 2026-11-16) b'), token('2026-11-16'));
    expect(splitGzip(gz, token('2026-11-16'), 2)).toBeNull();
  });

  it('computes CRC-32 as zlib does', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2000 }), (b) => crc32(b) === zlibCrc32(b)));
  });
});

describe('what is compressed', () => {
  it.each([
    ['text/html; charset=utf-8', true], ['application/json; charset=utf-8', true], ['text/csv; charset=utf-8', true], ['application/xml', true],
    ['image/svg+xml', true], ['application/ld+json', true], ['application/schema+json', true], ['application/gzip', false], ['image/x-icon', false],
    ['application/octet-stream', false],
  ])('%s: %s', (type, expected) => expect(isCompressible(type)).toBe(expected));
});

describe('content-coding negotiation (RFC 9110, 12.5.3)', () => {
  const both = ['br', 'gzip'] as const;
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0.1, gzip;q=0.5', 'gzip'],
    ['br;q=0', 'identity'],
    ['deflate', 'identity'],
    ['identity', 'identity'],
    ['gzip;q=0.8, identity;q=0.9', 'identity'],
    ['gzip;q=abc', 'identity'],
    ['gzip;q=1.5', 'identity'],
    ['  br ; q=1 ,gzip', 'br'],
  ])('Accept-Encoding %j with br and gzip at hand: %s', (header, expected) => {
    expect(negotiateCoding(header, both)).toBe(expected);
  });

  it('offers only what the file has', () => {
    expect(negotiateCoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(negotiateCoding('br', ['gzip'])).toBe('identity');
    expect(negotiateCoding('gzip, br', [])).toBe('identity');
  });
});
