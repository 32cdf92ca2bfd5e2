import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../../protocol/composer.ts';
import { useTempWorkspace } from '../../../test/temp-workspace.ts';
import { readSessionImage, sniffImageType } from '../../session/session-images.ts';
import { imageModelRefusal, ImageStore } from './image-store.ts';

const temp = useTempWorkspace('aether-images-');

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]);

describe('ImageStore', () => {
  it('holds an attached image by its hash and keeps it in the session folder once sent', async () => {
    const store = new ImageStore();
    const ref = store.attach('image/png', PNG.toString('base64'));
    expect(ref).toMatchObject({ media_type: 'image/png', bytes: PNG.length });
    expect(ref.sha256).toMatch(/^[0-9a-f]{64}$/);
    const [kept] = await store.persist(temp.sessionDir, [ref.sha256]);
    expect(kept?.sha256).toBe(ref.sha256);
    expect(await readFile(path.join(temp.sessionDir, 'images', ref.sha256))).toEqual(PNG);
    const again = await readSessionImage(temp.sessionDir, ref.sha256);
    expect(Buffer.from(again.data)).toEqual(PNG);
    // Sent: the store no longer holds it, the session folder does.
    expect((await store.read(temp.sessionDir, ref.sha256)).bytes).toBe(PNG.length);
  });

  it('reads the type from the bytes, whatever the page claimed', () => {
    const store = new ImageStore();
    expect(store.attach('image/png', WEBP.toString('base64')).media_type).toBe('image/webp');
    expect(() => store.attach('image/png', Buffer.from('<svg/>').toString('base64'))).toThrow(
      /attach a PNG, JPEG, GIF or WebP image/,
    );
  });

  it('refuses an image over the size limit, saying how big it is and what to do', () => {
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES)]);
    expect(() => new ImageStore().attach('image/png', big.toString('base64'))).toThrow(
      /is 2\.5 MiB; an attached image may be at most 2\.5 MiB\. Crop it/,
    );
  });

  it('says an image it never held must be attached again', async () => {
    await expect(new ImageStore().persist(temp.sessionDir, ['c'.repeat(64)])).rejects.toThrow(/attach it again/);
  });
});

describe('which models take images', () => {
  it('lets Anthropic and OpenAI models have them and refuses others before sending', () => {
    expect(imageModelRefusal('anthropic:claude-sonnet-4-5')).toBeNull();
    expect(imageModelRefusal('openai:gpt-4.1')).toBeNull();
    expect(imageModelRefusal('compat:http://127.0.0.1:1/v1#llama')).toContain('does not take images');
    expect(imageModelRefusal('demo')).toContain('choose an Anthropic or OpenAI model');
  });

  it('knows the four image types by their first bytes', () => {
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('GIF89a'))).toBe('image/gif');
    expect(sniffImageType(Buffer.from('hello'))).toBeNull();
  });
});
