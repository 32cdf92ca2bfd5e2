import { useState, type ClipboardEvent, type DragEvent } from 'react';
import { MAX_IMAGES } from '../../protocol/composer.ts';
import type { PanelActions } from '../actions.ts';
import { attachImage, imageFiles, type AttachedImage } from './images.ts';

// Images waiting in the composer for the next message: pasted (Ctrl/Cmd+V) or dropped on it,
// each checked (type, size) before it is handed to the panel; the first refusal is shown.

export function useAttachments(actions: PanelActions, showError: (error: string) => void) {
  const [images, setImages] = useState<AttachedImage[]>([]);

  const add = async (files: File[]) => {
    for (const file of files) {
      if (images.length >= MAX_IMAGES) {
        showError(`A message may carry at most ${MAX_IMAGES} images; remove one to attach another.`);
        return;
      }
      const attached = await attachImage(file, actions);
      if (!attached.ok) {
        showError(attached.error);
        return;
      }
      setImages((current) =>
        current.some((image) => image.sha256 === attached.image.sha256) ? current : [...current, attached.image],
      );
    }
  };

  return {
    images,
    remove: (sha256: string) => setImages((current) => current.filter((image) => image.sha256 !== sha256)),
    clear: () => setImages([]),
    restore: (previous: AttachedImage[]) => setImages((current) => (current.length === 0 ? previous : current)),
    onPaste: (event: ClipboardEvent<HTMLTextAreaElement>) => {
      const files = imageFiles(event.clipboardData.files);
      if (files.length === 0) return;
      // An image pasted is attached, never pasted as text (its name, or nothing).
      event.preventDefault();
      void add(files);
    },
    onDragOver: (event: DragEvent<HTMLElement>) => {
      if ([...event.dataTransfer.types].includes('Files')) event.preventDefault();
    },
    onDrop: (event: DragEvent<HTMLElement>) => {
      const files = [...event.dataTransfer.files];
      if (files.length === 0) return;
      event.preventDefault();
      void add(files);
    },
  };
}
