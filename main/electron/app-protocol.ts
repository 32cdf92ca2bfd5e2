import { readFile } from 'node:fs/promises';
import { protocol } from 'electron';
import { contentSecurityPolicy, PANEL_HEADERS } from '../host/csp.ts';
import { mimeType, resolveStaticFile } from '../host/web/static-files.ts';

// The renderer is served from app://panel/, never file://: a standard, secure origin of its own,
// so the CSP, same-origin rules and the IPC sender check all have a real origin to work with.

const APP_SCHEME = 'app';
const APP_HOST = 'panel';
export const PANEL_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;
/** The start of a blob: URL the panel itself made (its Save… of bytes it holds). */
export const PANEL_BLOB_PREFIX = `blob:${APP_SCHEME}://${APP_HOST}/`;

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

export function isPanelUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
}

/** One app:// response: a file of the built renderer with the panel's headers, or a refusal. */
export async function appResponse(request: { url: string; method: string }, rendererDir: string): Promise<Response> {
  if (!isPanelUrl(request.url)) return refuse(404, 'Not found.');
  if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'Only GET and HEAD are served.');
  const file = await resolveStaticFile(rendererDir, new URL(request.url).pathname);
  if (file === null) return refuse(404, 'Not found.');
  const body = await readFile(file);
  const headers = {
    ...PANEL_HEADERS,
    'content-security-policy': contentSecurityPolicy(),
    'content-type': mimeType(file),
  };
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
}

export function handleAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => appResponse(request, rendererDir));
}

function refuse(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: {
      ...PANEL_HEADERS,
      'content-type': 'text/plain; charset=utf-8',
      'content-security-policy': "default-src 'none'",
    },
  });
}
