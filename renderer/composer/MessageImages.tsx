import type { ImageRef } from '../../protocol/composer.ts';
import { formatBytes } from '../../protocol/format.ts';
import { useActions } from '../actions.ts';
import { useImageUrl } from './images.ts';

// The images of a sent message, as thumbnails under its text.

export function MessageImages({ images }: { images: readonly ImageRef[] }) {
  return (
    <div className="message-images" data-testid="message-images">
      {images.map((image) => (
        <MessageImage key={image.sha256} image={image} />
      ))}
    </div>
  );
}

function MessageImage({ image }: { image: ImageRef }) {
  const url = useImageUrl(image.sha256, useActions());
  const label = `Image, ${image.media_type.replace('image/', '').toUpperCase()}, ${formatBytes(image.bytes)}`;
  return url ? (
    <img className="image-thumb" data-testid="message-image" src={url} alt={label} title={label} />
  ) : (
    <span className="image-thumb missing" data-testid="message-image" role="img" aria-label={label}>
      image
    </span>
  );
}
