import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageMediaType, ImageRef } from '../../protocol/composer.ts';

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

/** The image type its first bytes say, or null for anything else. */
export function sniffImageType(data: Uint8Array): ImageMediaType | null {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => data[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  const ascii = (from: number, to: number) => String.fromCharCode(...data.subarray(from, to));
  if (data.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}
