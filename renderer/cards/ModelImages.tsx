import { useState } from 'react';
import type { ImageRef } from '../../protocol/composer.ts';
import { formatBytes } from '../../protocol/format.ts';
import { useActions } from '../actions.ts';
import { useImageUrl } from '../composer/images.ts';

// The images the model received with a call's result (an MCP tool's), in "What the model received":
// read from the session's folder by their hash, each a button that shows it at full size and back.

export function ModelImages({ images }: { images: readonly ImageRef[] }) {
  return (
    <ul className="model-images" data-testid="model-images" aria-label="Images the model received">
      {images.map((image, index) => (
        <li key={image.sha256}>
          <ModelImage image={image} label={imageLabel(image, index, images.length)} />
        </li>
      ))}
    </ul>
  );
}

function imageLabel(image: ImageRef, index: number, count: number): string {
  const type = image.media_type.replace('image/', '').toUpperCase();
  return `Image ${index + 1} of ${count} the model received, ${type}, ${formatBytes(image.bytes)}`;
}

function ModelImage({ image, label }: { image: ImageRef; label: string }) {
  const url = useImageUrl(image.sha256, useActions());
  const [large, setLarge] = useState(false);
  if (!url) {
    return (
      <span className="image-thumb missing" data-testid="model-image" role="img" aria-label={label}>
        image
      </span>
    );
  }
  return (
    <button
      type="button"
      className="model-image-button"
      data-testid="model-image-button"
      aria-pressed={large}
      aria-label={`${label}. ${large ? 'Show it small' : 'Show it at full size'}`}
      onClick={() => setLarge(!large)}
    >
      <img className={large ? 'model-image-full' : 'image-thumb'} data-testid="model-image" src={url} alt={label} />
    </button>
  );
}
