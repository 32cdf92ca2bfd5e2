// Container formats for the application icon, written with zlib alone so the icon set is produced
// on any machine without image tools or downloads: PNG (Linux set, the source image), ICNS (macOS)
// and ICO (Windows, NSIS).
import { crc32, deflateSync } from 'node:zlib';

/** An image as straight (not premultiplied) 8-bit RGBA, rows top to bottom. */
export interface RgbaImage {
  readonly size: number;
  readonly pixels: Uint8Array;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4, 8))), 0);
  return Buffer.concat([head, data, crc]);
}

/** A square RGBA image as a PNG file (colour type 6, 8 bits, no interlace). */
export function encodePng(image: RgbaImage): Buffer {
  const { size, pixels } = image;
  if (pixels.length !== size * size * 4)
    throw new Error(`encodePng: expected ${size * size * 4} bytes for ${size}×${size}, got ${pixels.length}`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  // Every scanline starts with its filter byte; "Up" (2) suits smooth gradients and keeps files small.
  const stride = size * 4;
  const raw = Buffer.alloc((stride + 1) * size);
  for (let y = 0; y < size; y++) {
    const out = y * (stride + 1);
    raw[out] = 2;
    for (let i = 0; i < stride; i++) {
      const above = y === 0 ? 0 : (pixels[(y - 1) * stride + i] ?? 0);
      raw[out + 1 + i] = ((pixels[y * stride + i] ?? 0) - above) & 0xff;
    }
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// PNG-bearing ICNS element types by pixel size (macOS 10.7+ reads PNG data in all of them).
const ICNS_TYPES: ReadonlyMap<number, string> = new Map([
  [16, 'icp4'],
  [32, 'icp5'],
  [64, 'icp6'],
  [128, 'ic07'],
  [256, 'ic08'],
  [512, 'ic09'],
  [1024, 'ic10'],
]);

/** An Apple icon family holding one PNG per size. */
export function encodeIcns(pngsBySize: ReadonlyMap<number, Buffer>): Buffer {
  const elements: Buffer[] = [];
  for (const [size, png] of [...pngsBySize].sort(([a], [b]) => a - b)) {
    const type = ICNS_TYPES.get(size);
    if (type === undefined)
      throw new Error(
        `encodeIcns: no ICNS element type for ${size}px; use one of ${[...ICNS_TYPES.keys()].join(', ')}`,
      );
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    elements.push(head, png);
  }
  const body = Buffer.concat(elements);
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(body.length + 8, 4);
  return Buffer.concat([head, body]);
}

// A 32-bit DIB as ICO stores it: BITMAPINFOHEADER with doubled height, BGRA rows bottom-up, then the
// 1-bit AND mask (all zero: the alpha channel already says what is transparent).
function icoBitmap(image: RgbaImage): Buffer {
  const { size, pixels } = image;
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8);
  header.writeUInt16LE(1, 12); // planes
  header.writeUInt16LE(32, 14); // bits per pixel
  const xor = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const from = (y * size + x) * 4;
      const to = ((size - 1 - y) * size + x) * 4;
      xor[to] = pixels[from + 2] ?? 0;
      xor[to + 1] = pixels[from + 1] ?? 0;
      xor[to + 2] = pixels[from] ?? 0;
      xor[to + 3] = pixels[from + 3] ?? 0;
    }
  }
  const maskStride = Math.ceil(size / 32) * 4;
  return Buffer.concat([header, xor, Buffer.alloc(maskStride * size)]);
}

/**
 * A Windows icon: sizes below 256 as classic 32-bit bitmaps (read by every consumer, NSIS included),
 * 256 as PNG, which is how Windows itself stores its largest entry.
 */
export function encodeIco(images: readonly RgbaImage[]): Buffer {
  const sorted = [...images].sort((a, b) => a.size - b.size);
  const payloads = sorted.map((image) => {
    if (image.size > 256) throw new Error(`encodeIco: ${image.size}px is larger than ICO allows (256)`);
    return image.size === 256 ? encodePng(image) : icoBitmap(image);
  });
  const dir = Buffer.alloc(6 + 16 * sorted.length);
  dir.writeUInt16LE(0, 0);
  dir.writeUInt16LE(1, 2); // type: icon
  dir.writeUInt16LE(sorted.length, 4);
  let offset = dir.length;
  sorted.forEach((image, i) => {
    const entry = 6 + 16 * i;
    const payload = payloads[i] ?? Buffer.alloc(0);
    dir[entry] = image.size === 256 ? 0 : image.size; // 0 means 256
    dir[entry + 1] = image.size === 256 ? 0 : image.size;
    dir.writeUInt16LE(1, entry + 4); // colour planes
    dir.writeUInt16LE(32, entry + 6); // bits per pixel
    dir.writeUInt32LE(payload.length, entry + 8);
    dir.writeUInt32LE(offset, entry + 12);
    offset += payload.length;
  });
  return Buffer.concat([dir, ...payloads]);
}
