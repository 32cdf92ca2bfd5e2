import { formatBytes } from '../../protocol/format.ts';
import type { AttachedImage } from './images.ts';

// The images waiting for the next message, as thumbnails with a remove button each.

export function AttachedImages({
  images,
  onRemove,
}: {
  images: readonly AttachedImage[];
  onRemove(sha256: string): void;
}) {
  if (images.length === 0) return null;
  return (
    <ul className="composer-images" aria-label="Attached images" data-testid="composer-images">
      {images.map((image) => (
        <li key={image.sha256} className="composer-image" data-testid="composer-image">
          <img className="image-thumb" src={image.url} alt={`${image.name}, ${formatBytes(image.bytes)}`} />
          <button
            type="button"
            className="button small composer-image-remove"
            data-testid="composer-image-remove"
            aria-label={`Remove ${image.name}`}
            onClick={() => onRemove(image.sha256)}
          >
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}
