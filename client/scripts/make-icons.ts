// Draws the app's icons (client/public/icons) without an image library: a speech bubble on the
// brand blue, written as PNG with node:zlib. Run once after changing the drawing:
//   node --import tsx client/scripts/make-icons.ts
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BLUE = [75, 99, 240];
const WHITE = [255, 255, 255];

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Inside the bubble: an ellipse with a tail at the lower left. `maskable` keeps it in the safe zone. */
function inBubble(x: number, y: number, size: number, maskable: boolean): boolean {
  const scale = maskable ? 0.62 : 0.8;
  const cx = size / 2;
  const cy = size * 0.47;
  const rx = (size * scale) / 2;
  const ry = rx * 0.78;
  const dx = (x - cx) / rx;
  const dy = (y - cy) / ry;
  if (dx * dx + dy * dy <= 1) return true;
  // The tail: a triangle below the ellipse's lower left.
  const tx = cx - rx * 0.45;
  const ty = cy + ry * 0.75;
  const h = ry * 0.55;
  return y >= ty && y <= ty + h && x >= tx - (ty + h - y) * 0.2 && x <= tx + (ty + h - y) * 0.9 - h * 0.2;
}

function png(size: number, maskable: boolean): Buffer {
  const rows: Buffer[] = [];
  const radius = maskable ? 0 : size * 0.22;
  for (let y = 0; y < size; y += 1) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x += 1) {
      // Rounded square background (full square for maskable icons).
      const qx = Math.max(radius - x, 0, x - (size - 1 - radius));
      const qy = Math.max(radius - y, 0, y - (size - 1 - radius));
      const inside = radius === 0 || qx * qx + qy * qy <= radius * radius;
      const colour = inBubble(x + 0.5, y + 0.5, size, maskable) ? WHITE : BLUE;
      row.set([...colour, inside ? 255 : 0], 1 + x * 4);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const out = path.resolve(__dirname, '../public/icons');
fs.mkdirSync(out, { recursive: true });
for (const size of [192, 512]) fs.writeFileSync(path.join(out, `icon-${size}.png`), png(size, false));
fs.writeFileSync(path.join(out, 'icon-maskable-512.png'), png(512, true));
fs.writeFileSync(path.join(out, 'apple-touch-icon.png'), png(180, true));
fs.writeFileSync(path.join(out, 'favicon-32.png'), png(32, false));
