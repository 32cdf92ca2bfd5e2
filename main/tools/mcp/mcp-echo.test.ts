import { describe, expect, it } from 'vitest';
import { mcpEcho } from './mcp-tool.ts';

// What the MCP card is given of a result: its text, and the images and audio clips small enough to
// carry through IPC and the log (a few of each, each of a well-formed type); the rest are counted.

const wav = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64');

describe('the MCP card’s echo of a result', () => {
  it('carries small audio clips to play and counts the others', () => {
    const echo = mcpEcho('voice', 'speak', {
      content: [
        { type: 'text', text: 'Spoken.' },
        { type: 'audio', mimeType: 'audio/wav', data: wav(64) },
        { type: 'audio', mimeType: 'audio/wav', data: wav(400 * 1024) },
        { type: 'audio', mimeType: 'text/html', data: wav(8) },
      ],
    });
    expect(echo.audio).toEqual([{ mime_type: 'audio/wav', data: wav(64) }]);
    expect(echo.audio_omitted).toBe(2);
    expect(echo.images).toEqual([]);
    // The model's text names each clip with its type and size.
    expect(echo.text).toBe(
      'Spoken.\n[audio audio/wav, 64 bytes]\n[audio audio/wav, 400.0 KiB]\n[audio text/html, 8 bytes]',
    );
  });

  it('keeps at most four images and never mixes images with audio', () => {
    const image = { type: 'image' as const, mimeType: 'image/png', data: wav(16) };
    const echo = mcpEcho('pics', 'many', {
      content: [image, image, image, image, image, { type: 'audio', mimeType: 'audio/ogg', data: wav(16) }],
    });
    expect(echo.images).toHaveLength(4);
    expect(echo.images_omitted).toBe(1);
    expect(echo.audio).toEqual([{ mime_type: 'audio/ogg', data: wav(16) }]);
    expect(echo.audio_omitted).toBe(0);
  });
});
