import { useEffect, useState } from 'react';
import { imageRefusal, isImageMediaType, type ImageRef } from '../../protocol/composer.ts';
import type { PanelActions } from '../actions.ts';

// Images in messages: reading a pasted or dropped file for the panel, and the thumbnails' data
// URLs, kept once per image (the composer's own, or fetched from the panel for a replayed session).

const urls = new Map<string, string>();

/** A file's bytes as base64 (no `data:` prefix). */
export function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}

export interface AttachedImage extends ImageRef {
  url: string;
  name: string;
}

/** Checks one file and hands it to the panel; the error says what to do when it cannot go. */
export async function attachImage(
  file: File,
  actions: PanelActions,
): Promise<{ ok: true; image: AttachedImage } | { ok: false; error: string }> {
  const name = file.name ? `"${file.name}"` : 'The pasted image';
  const refusal = imageRefusal(file.type, file.size, name);
  if (refusal || !isImageMediaType(file.type)) return { ok: false, error: refusal ?? `${name} is not an image.` };
  const data = await base64Of(file);
  const attached = await actions.attachImage(file.type, data);
  if (!attached.ok) return attached;
  const url = `data:${attached.value.media_type};base64,${data}`;
  urls.set(attached.value.sha256, url);
  return { ok: true, image: { ...attached.value, url, name: file.name || 'pasted image' } };
}

/** The image files among pasted or dropped data. */
export function imageFiles(list: FileList | null | undefined): File[] {
  return [...(list ?? [])].filter((file) => file.type.startsWith('image/') || file.type === '');
}

/** A thumbnail's data URL: the one the composer made, else fetched once from the panel. */
export function useImageUrl(sha256: string, actions: PanelActions): string | null {
  const [url, setUrl] = useState(() => urls.get(sha256) ?? null);
  useEffect(() => {
    if (urls.has(sha256)) return;
    let current = true;
    void actions.image(sha256).then((image) => {
      if (!image || !current) return;
      const made = `data:${image.media_type};base64,${image.data}`;
      urls.set(sha256, made);
      setUrl(made);
    });
    return () => {
      current = false;
    };
  }, [sha256, actions]);
  return url;
}
