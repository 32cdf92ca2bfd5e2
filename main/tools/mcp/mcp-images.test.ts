import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../../protocol/composer.ts';
import { MAX_RESULT_IMAGES, resultImages } from './mcp-images.ts';

// Which images of an MCP result go to the model: real image types by their bytes, each at most
// MAX_IMAGE_BYTES, once each, at most MAX_RESULT_IMAGES.

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const png = (marker: number, size = 16) => {
  const data = new Uint8Array(size);
  data.set(PNG_HEAD);
  data[size - 1] = marker;
  return Buffer.from(data).toString('base64');
};
const image = (data: string, mimeType = 'image/png') => ({ type: 'image' as const, data, mimeType });

describe('resultImages', () => {
  it('keeps real images once each, up to the bound, with their type from the bytes', () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64');
    const result: CallToolResult = {
      content: [
        { type: 'text', text: 'six images' },
        image(svg, 'image/svg+xml'),
        image(png(1), 'image/jpeg'),
        image(png(1)),
        image(png(2)),
        image(png(3)),
        image(png(4)),
        image(png(5)),
      ],
    };
    const images = resultImages(result);
    expect(images).toHaveLength(MAX_RESULT_IMAGES);
    expect(images.map((kept) => kept.data.at(-1))).toEqual([1, 2, 3, 4]);
    expect(images.every((kept) => kept.media_type === 'image/png' && kept.bytes === 16)).toBe(true);
    expect(new Set(images.map((kept) => kept.sha256)).size).toBe(4);
    expect(images[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('leaves out an image larger than the limit', () => {
    const result: CallToolResult = { content: [image(png(9, MAX_IMAGE_BYTES + 1)), image(png(7, MAX_IMAGE_BYTES))] };
    const images = resultImages(result);
    expect(images.map((kept) => kept.bytes)).toEqual([MAX_IMAGE_BYTES]);
  });
});
