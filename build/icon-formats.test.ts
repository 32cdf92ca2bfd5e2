import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { drawIcon } from './icon-art.ts';
import { encodeIcns, encodeIco, encodePng } from './icon-formats.ts';
import { iconFiles } from './make-icons.ts';

interface PngChunk {
  type: string;
  data: Buffer;
  crcOk: boolean;
}

function pngChunks(png: Buffer): PngChunk[] {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const chunks: PngChunk[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const typeAndData = png.subarray(at + 4, at + 8 + length);
    chunks.push({
      type: typeAndData.subarray(0, 4).toString('latin1'),
      data: typeAndData.subarray(4),
      crcOk: crc32(typeAndData) === png.readUInt32BE(at + 8 + length),
    });
    at += 12 + length;
  }
  return chunks;
}

// Reverses the encoder's per-row "Up" filter, independently of the encoder's code.
function decodePng(png: Buffer): { size: number; pixels: Uint8Array } {
  const chunks = pngChunks(png);
  const ihdr = chunks.find((c) => c.type === 'IHDR')?.data ?? Buffer.alloc(13);
  const size = ihdr.readUInt32BE(0);
  const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const stride = size * 4;
  const pixels = new Uint8Array(stride * size);
  for (let y = 0; y < size; y++) {
    expect(raw[y * (stride + 1)]).toBe(2);
    for (let i = 0; i < stride; i++) {
      const above = y === 0 ? 0 : (pixels[(y - 1) * stride + i] ?? 0);
      pixels[y * stride + i] = ((raw[y * (stride + 1) + 1 + i] ?? 0) + above) & 0xff;
    }
  }
  return { size, pixels };
}

describe('icon formats', () => {
  it('encodes a PNG whose chunks check out and whose pixels decode back to the drawing', () => {
    const image = drawIcon(48);
    const png = encodePng(image);
    const chunks = pngChunks(png);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(chunks.every((c) => c.crcOk)).toBe(true);
    expect(decodePng(png)).toEqual({ size: 48, pixels: image.pixels });
  });

  it('draws a tile with transparent corners and an opaque centre', () => {
    const { size, pixels } = drawIcon(64);
    expect(pixels[3]).toBe(0);
    expect(pixels[((size / 2) * size + size / 2) * 4 + 3]).toBe(255);
  });

  it('indexes one PNG element per size in an ICNS family', () => {
    const pngs = new Map([16, 128].map((size) => [size, encodePng(drawIcon(size))]));
    const icns = encodeIcns(pngs);
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const first = pngs.get(16) ?? Buffer.alloc(0);
    expect(icns.subarray(8, 12).toString('latin1')).toBe('icp4');
    expect(icns.subarray(16, 16 + first.length)).toEqual(first);
    expect(icns.subarray(16 + first.length, 20 + first.length).toString('latin1')).toBe('ic07');
  });

  it('refuses an ICNS size that has no element type', () => {
    expect(() => encodeIcns(new Map([[20, Buffer.alloc(0)]]))).toThrow(/no ICNS element type for 20px/);
  });

  it('writes an ICO directory whose entries point at a bottom-up bitmap and a 256 px PNG', () => {
    const small = drawIcon(16);
    const ico = encodeIco([drawIcon(256), small]);
    expect(ico.readUInt16LE(2)).toBe(1);
    expect(ico.readUInt16LE(4)).toBe(2);
    // Entry 0: 16 px bitmap; the last row of the bitmap is the first row of the image.
    expect(ico[6]).toBe(16);
    const bitmapAt = ico.readUInt32LE(6 + 12);
    expect(ico.readInt32LE(bitmapAt + 8)).toBe(32);
    const lastRowFirstPixel = bitmapAt + 40 + 15 * 16 * 4;
    expect([...ico.subarray(lastRowFirstPixel, lastRowFirstPixel + 4)]).toEqual([
      small.pixels[2],
      small.pixels[1],
      small.pixels[0],
      small.pixels[3],
    ]);
    // Entry 1: 256 px, stored as PNG with 0 meaning 256 in the directory.
    expect(ico[22]).toBe(0);
    const pngAt = ico.readUInt32LE(22 + 12);
    expect(decodePng(ico.subarray(pngAt, pngAt + ico.readUInt32LE(22 + 8))).size).toBe(256);
  });

  it('has committed exactly the icon set that make-icons draws', () => {
    for (const [name, bytes] of iconFiles()) {
      expect(readFileSync(join(import.meta.dirname, name)).equals(bytes), name).toBe(true);
    }
  });
});
