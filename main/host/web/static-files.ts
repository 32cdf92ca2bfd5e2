import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

// Resolving a request path to a file of the built renderer, for the web host and for Electron's
// app:// protocol alike. Anything that would leave the renderer folder is refused.

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function mimeType(file: string): string {
  return MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The real path of the file a URL path names inside `root`, or null when it is outside, hidden,
 * malformed, absent or not a regular file (a folder). `/` is `index.html`. Symlinks are followed
 * and must stay inside.
 */
export async function resolveStaticFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((segment) => segment.length > 0);
  if (segments.some((segment) => segment === '..' || segment === '.' || segment.startsWith('.'))) return null;
  const relative = segments.length === 0 ? 'index.html' : segments.join('/');
  let realRoot: string;
  let real: string;
  try {
    realRoot = await realpath(root);
    real = await realpath(path.join(realRoot, relative));
  } catch {
    return null;
  }
  const inside = path.relative(realRoot, real);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) return null;
  const isFile = await stat(real).then(
    (entry) => entry.isFile(),
    () => false,
  );
  return isFile ? real : null;
}
