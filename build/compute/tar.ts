/**
 * A deterministic gzipped tar (ustar) of in-memory files (pure: the same entries give the same bytes): files
 * in the order given, mode 0644, owner 0/0 with no names, one fixed modification time, no directory entries.
 * Any `tar -xzf` and every archive library read it.
 */
import { gzipSync } from 'node:zlib';

export interface TarEntry {
  path: string;
  bytes: Buffer;
}

const BLOCK = 512;

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

/** `path` as ustar's name (up to 100 bytes) and prefix (up to 155), split at a slash. */
function splitName(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: '' };
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  throw new Error(`archive path too long for ustar: ${path}`);
}

function header(path: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK, 0);
  const { name, prefix } = splitName(path);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 8, 'ascii');
  h.write(octal(0, 8), 108, 8, 'ascii');
  h.write(octal(0, 8), 116, 8, 'ascii');
  h.write(octal(size, 12), 124, 12, 'ascii');
  h.write(octal(mtime, 12), 136, 12, 'ascii');
  h.write('        ', 148, 8, 'ascii'); // checksum field counts as spaces while summing
  h.write('0', 156, 1, 'ascii'); // regular file
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148, 8, 'ascii');
  return h;
}

/** The .tar.gz of `entries` with every file dated `mtimeSeconds` (Unix time). */
export function tarGz(entries: readonly TarEntry[], mtimeSeconds: number): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(header(e.path, e.bytes.length, mtimeSeconds), e.bytes);
    const pad = (BLOCK - (e.bytes.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad, 0));
  }
  parts.push(Buffer.alloc(BLOCK * 2, 0)); // end of archive
  return gzipSync(Buffer.concat(parts), { level: 9 });
}
