import { describe, expect, it } from 'vitest';
import { request, runStep, useHarness, WIRE_CASES } from '../../test/model-support.ts';

// A person's message with an image goes out as each API's image block, its bytes base64, over real
// HTTP; one whose bytes could not be loaded goes as a note saying so, never silently dropped.

const start = useHarness();
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const PNG_BASE64 = Buffer.from(PNG).toString('base64');

describe.each(WIRE_CASES.filter((wireCase) => wireCase.label !== 'compat'))('$label wire', (wireCase) => {
  it('sends the text, then the image as an image block', async () => {
    const harness = await start(wireCase, { steps: [{ text: ['A tiny PNG.'] }] });
    const outcome = await runStep(
      harness.adapter,
      request([
        {
          role: 'user',
          content: 'What is this?',
          images: [{ sha256: 'a'.repeat(64), media_type: 'image/png', data: PNG }],
        },
      ]),
    );
    expect(outcome.error).toBeUndefined();
    const body = JSON.stringify(harness.server.requests.at(-1)?.body);
    expect(body).toContain('What is this?');
    expect(body).toContain(PNG_BASE64);
    if (wireCase.wire === 'anthropic') expect(body).toContain('"type":"image"');
    else expect(body).toContain('data:image/png;base64,');
  });

  it('says so when an image could not be loaded', async () => {
    const harness = await start(wireCase, { steps: [{ text: ['Noted.'] }] });
    await runStep(
      harness.adapter,
      request([{ role: 'user', content: 'And this?', images: [{ sha256: 'b'.repeat(64), media_type: 'image/webp' }] }]),
    );
    expect(JSON.stringify(harness.server.requests.at(-1)?.body)).toContain(
      'An image (image/webp) was attached here but could not be read.',
    );
  });
});
