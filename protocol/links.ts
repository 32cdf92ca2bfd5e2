// Which links may leave the panel for the person's browser: https: anywhere, and http: to this
// machine only (a dev server a background process listens on, `http://127.0.0.1:5173`). Nothing
// else (file:, javascript:, custom schemes, plain http: elsewhere) is ever opened.

const HTTPS = /^https:\/\/[^\s/?#]+([/?#]\S*)?$/i;
const LOOPBACK_HTTP = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?([/?#]\S*)?$/i;

/** Why `url` may not be opened outside the panel; null when it may (after the person confirms). */
export function outsideLinkRefusal(url: string): string | null {
  if (HTTPS.test(url) || LOOPBACK_HTTP.test(url)) return null;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) return `Not a link: ${url.slice(0, 200)}`;
  return `Only https: links (and http: to this machine) open outside the panel; ${url.slice(0, 200)} was not opened.`;
}

/** The link a port a process listens on opens. */
export function portLink(port: number): string {
  return `http://127.0.0.1:${port}/`;
}
