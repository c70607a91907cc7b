/**
 * The site icon (pure, no external asset): an SVG linked from every page's <head>, and the same picture as
 * a 16x16 32-bit ICO for clients that ask for /favicon.ico without reading the page. Both are drawn from one
 * set of shapes on a 16-unit grid: a rounded blue square with three rising white bars.
 */

const BLUE = [0x1f, 0x5f, 0xae] as const; // --accent of the pages
const SIZE = 16;
const RADIUS = 3;
/** white bars: [x, y, width, height] on the 16-unit grid */
const BARS: [number, number, number, number][] = [[3, 9, 3, 4], [7, 6, 3, 7], [11, 3, 3, 10]];

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}"><rect width="${SIZE}" height="${SIZE}" rx="${RADIUS}" fill="#${BLUE.map((c) => c.toString(16).padStart(2, '0')).join('')}"/>${BARS.map(([x, y, w, h]) => `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#fff"/>`).join('')}</svg>\n`;

/** Colour of pixel (x, y), top-left origin: [r, g, b, a]. */
function pixel(x: number, y: number): [number, number, number, number] {
  // outside the rounded corners: transparent (pixel centre farther than RADIUS from the corner circle's centre)
  const cx = x < RADIUS ? RADIUS : x >= SIZE - RADIUS ? SIZE - RADIUS : null;
  const cy = y < RADIUS ? RADIUS : y >= SIZE - RADIUS ? SIZE - RADIUS : null;
  if (cx !== null && cy !== null && Math.hypot(x + 0.5 - cx, y + 0.5 - cy) > RADIUS) return [0, 0, 0, 0];
  if (BARS.some(([bx, by, w, h]) => x >= bx && x < bx + w && y >= by && y < by + h)) return [255, 255, 255, 255];
  return [BLUE[0], BLUE[1], BLUE[2], 255];
}

/** The icon as a .ico file: one 16x16 BGRA bitmap (rows bottom-up) and an all-zero AND mask. */
export function faviconIco(): Buffer {
  const pixels = SIZE * SIZE * 4;
  const mask = SIZE * 4; // 1 bit per pixel, rows padded to 4 bytes
  const image = 40 + pixels + mask;
  const b = Buffer.alloc(6 + 16 + image);
  b.writeUInt16LE(0, 0); // reserved
  b.writeUInt16LE(1, 2); // type: icon
  b.writeUInt16LE(1, 4); // one image
  b.writeUInt8(SIZE, 6);
  b.writeUInt8(SIZE, 7);
  b.writeUInt16LE(1, 10); // planes
  b.writeUInt16LE(32, 12); // bits per pixel
  b.writeUInt32LE(image, 14);
  b.writeUInt32LE(22, 18); // offset of the image
  let o = 22;
  b.writeUInt32LE(40, o); // BITMAPINFOHEADER
  b.writeInt32LE(SIZE, o + 4);
  b.writeInt32LE(SIZE * 2, o + 8); // colour bitmap + mask
  b.writeUInt16LE(1, o + 12);
  b.writeUInt16LE(32, o + 14);
  b.writeUInt32LE(pixels + mask, o + 20);
  o += 40;
  for (let y = SIZE - 1; y >= 0; y--) {
    for (let x = 0; x < SIZE; x++) {
      const [r, g, bl, a] = pixel(x, y);
      b.writeUInt8(bl, o++);
      b.writeUInt8(g, o++);
      b.writeUInt8(r, o++);
      b.writeUInt8(a, o++);
    }
  }
  return b; // the mask stays zero: transparency comes from the alpha channel
}
