import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sniffImageType, type ImageRef } from '../../protocol/composer.ts';
import type { ChatMessage } from '../model/types.ts';

// The images of a session's messages: one file each in the session's folder, named by the
// sha256 of its bytes. The log names them; the model context carries their bytes.

export const IMAGES_FOLDER = 'images';

export interface StoredImage extends ImageRef {
  data: Uint8Array;
}

export async function readSessionImage(sessionDir: string, sha256: string): Promise<StoredImage> {
  const data = await readFile(path.join(sessionDir, IMAGES_FOLDER, sha256)).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      error.code === 'ENOENT'
        ? `Image ${sha256.slice(0, 12)}… is missing from the session folder ${sessionDir}.`
        : `Could not read image ${sha256.slice(0, 12)}… in ${sessionDir}: ${error.message}`,
    );
  });
  const media_type = sniffImageType(data);
  if (!media_type) throw new Error(`The file of image ${sha256.slice(0, 12)}… in ${sessionDir} is not an image.`);
  return { sha256, media_type, bytes: data.length, data: new Uint8Array(data) };
}

/** Keeps an image in the session's folder under its hash (a tool result's; see SessionLog.put). */
export async function writeSessionImage(sessionDir: string, image: StoredImage): Promise<void> {
  const folder = path.join(sessionDir, IMAGES_FOLDER);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFile(path.join(folder, image.sha256), image.data, { mode: 0o600 });
}

/** The bytes of the images in a resumed context; one that cannot be read is sent as a note saying so. */
export async function loadSessionImages(messages: ChatMessage[], sessionDir: string): Promise<void> {
  for (const message of messages) {
    if ((message.role !== 'user' && message.role !== 'tool') || !message.images) continue;
    for (const image of message.images) {
      const stored = await readSessionImage(sessionDir, image.sha256).catch(() => null);
      if (stored) image.data = stored.data;
    }
  }
}

export { sniffImageType } from '../../protocol/composer.ts';
