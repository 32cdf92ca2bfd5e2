import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { imageRefusal, MAX_IMAGES, type ImageMediaType, type ImageRef } from '../../../protocol/composer.ts';
import { IMAGES_FOLDER, readSessionImage, sniffImageType } from '../../agent/sessions.ts';
import type { StoredImage } from '../../session/session-images.ts';
import { MODEL_PROVIDER_LIST, modelProviderOf } from '../../model/providers.ts';

// Images pasted or dropped into the composer. Each is held here from the moment it is attached
// until the message goes out, then kept once in the session's folder, named by its hash
// (`images/<sha256>`), so the session log names it instead of carrying its bytes, and a resumed
// session sends the model the same image. The type is read from the bytes, never trusted from
// the page.

/** Attached and not sent yet, at most: the oldest goes first. */
const MAX_PENDING = MAX_IMAGES * 2;

export class ImageStore {
  private readonly pending = new Map<string, StoredImage>();

  /** Checks and holds one image; throws an error a person can act on. */
  attach(claimed: ImageMediaType, base64: string): ImageRef {
    const data = Buffer.from(base64, 'base64');
    const sniffed = sniffImageType(data);
    const refusal = imageRefusal(sniffed ?? '', data.length);
    if (refusal) throw new Error(refusal);
    const media_type = sniffed ?? claimed;
    const sha256 = createHash('sha256').update(data).digest('hex');
    const image = { sha256, media_type, bytes: data.length, data: new Uint8Array(data) };
    this.pending.delete(sha256);
    this.pending.set(sha256, image);
    while (this.pending.size > MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
    return { sha256, media_type, bytes: data.length };
  }

  /** Writes the attached images into the session's folder; throws when one was never attached. */
  async persist(sessionDir: string, hashes: readonly string[]): Promise<StoredImage[]> {
    const images: StoredImage[] = [];
    for (const sha256 of hashes) {
      const image = this.pending.get(sha256) ?? (await readSessionImage(sessionDir, sha256).catch(() => null));
      if (!image) throw new Error(`The image ${sha256.slice(0, 12)}… is no longer held by the panel; attach it again.`);
      const folder = path.join(sessionDir, IMAGES_FOLDER);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await writeFile(path.join(folder, sha256), image.data, { mode: 0o600 });
      this.pending.delete(sha256);
      images.push(image);
    }
    return images;
  }

  /** An image attached and not sent yet, or one of the session's. */
  async read(sessionDir: string | null, sha256: string): Promise<StoredImage> {
    const held = this.pending.get(sha256);
    if (held) return held;
    if (!sessionDir) throw new Error(`No session is open, so image ${sha256.slice(0, 12)}… cannot be shown.`);
    return readSessionImage(sessionDir, sha256);
  }
}

/** Why images cannot go to this model before anything is sent, or null when they can. */
export function imageModelRefusal(modelId: string): string | null {
  if (modelProviderOf(modelId)?.takesImages) return null;
  const takers = MODEL_PROVIDER_LIST.filter((provider) => provider.takesImages).map((provider) => provider.label);
  return (
    `The model ${modelId} does not take images, so the message was not sent. ` +
    `Remove the image, or choose an ${takers.join(' or ')} model (/model) and send it again.`
  );
}

/** The base64 of one image, for its thumbnail. */
export async function imageForPanel(
  store: ImageStore,
  sessionDir: string | null,
  sha256: string,
): Promise<{ media_type: ImageMediaType; data: string }> {
  const image = await store.read(sessionDir, sha256);
  return { media_type: image.media_type, data: Buffer.from(image.data).toString('base64') };
}
