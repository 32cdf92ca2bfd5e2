import type { PatchFileSuccess, ReadFileResult } from '../../protocol/tools.ts';
import type { ToolCallView } from '../store/transcript-types.ts';

// Reading tool arguments and echoes safely: they come from a model and a wire, so every field is
// checked before it is shown.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A string argument, or undefined when it is missing or not a string. */
export function stringArg(args: unknown, ...keys: string[]): string | undefined {
  if (!isRecord(args)) return undefined;
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** The last segment of a path, `/` or `\` separated; '' when there is no usable path. */
export function basename(path: unknown): string {
  if (typeof path !== 'string') return '';
  const trimmed = path.replace(/[/\\]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return cut < 0 ? trimmed : trimmed.slice(cut + 1);
}

/** The subtitle of a file card: the basename of `args.path`. */
export function pathSubtitle(call: Pick<ToolCallView, 'args'>): string {
  return basename(stringArg(call.args, 'path'));
}

/** The text an error card shows: the echo is the error text, or `{ error, content }`. */
export function errorText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (isRecord(result)) {
    if (typeof result['error'] === 'string') return result['error'];
    if (typeof result['content'] === 'string') return result['content'];
  }
  return result === undefined || result === null ? 'The call failed without a message.' : JSON.stringify(result);
}

export function asReadFileResult(result: unknown): ReadFileResult | null {
  if (!isRecord(result) || typeof result['content'] !== 'string' || !isRecord(result['range'])) return null;
  const range = result['range'];
  if (typeof range['start'] !== 'number' || typeof range['end'] !== 'number') return null;
  return result as unknown as ReadFileResult;
}

export function asPatchSuccess(result: unknown): PatchFileSuccess | null {
  if (!isRecord(result) || result['ok'] !== true || typeof result['diff'] !== 'string') return null;
  return result as unknown as PatchFileSuccess;
}

/** The echo as display text: generic tools echo a string; anything else is shown as JSON. */
export function resultText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined || result === null) return '';
  if (isRecord(result) && typeof result['content'] === 'string') return result['content'];
  return JSON.stringify(result, null, 2);
}

/** Nothing to show: no text, an empty object or list. The card becomes the minimal `✓ ok`. */
export function isEmptyResult(result: unknown): boolean {
  if (result === undefined || result === null) return true;
  if (typeof result === 'string') return result.trim() === '';
  if (Array.isArray(result)) return result.length === 0;
  if (isRecord(result)) return Object.keys(result).length === 0;
  return false;
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

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const total = Math.round(ms / 1000);
  if (total < 60) return `${total} s`;
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
