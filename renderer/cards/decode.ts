// Small readers the cards share (sizes and durations: protocol/format.ts). Echoes are decoded with their schemas (echo.ts).

/** The last segment of a path, `/` or `\` separated; '' when there is no usable path. */
export function basename(path: unknown): string {
  if (typeof path !== 'string') return '';
  const trimmed = path.replace(/[/\\]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return cut < 0 ? trimmed : trimmed.slice(cut + 1);
}

/** A compact one-line preview of arguments, for a nested call in the Code Mode trace. */
export function argsPreview(args: unknown, limit = 80): string {
  let text: string;
  try {
    text = typeof args === 'string' ? args : (JSON.stringify(args) ?? '');
  } catch {
    text = String(args);
  }
  text = text.replace(/\s+/g, ' ');
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
