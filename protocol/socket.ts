// The web host's socket handshake, shared by the page and the host. The page's token travels as a
// WebSocket subprotocol, never in the socket's URL: Chromium prints the URL of every socket that
// fails to connect in the console (each reconnect attempt while the host is down), and a URL ends
// up in logs and reports people copy.
//
//   client offers  Sec-WebSocket-Protocol: aethercodex.panel, aethercodex.token.<token>
//   host answers   Sec-WebSocket-Protocol: aethercodex.panel          (never the token back)

export const PANEL_SOCKET_PROTOCOL = 'aethercodex.panel';
const TOKEN_PREFIX = 'aethercodex.token.';
/** What a subprotocol name may hold (RFC 6455 §4.1: an HTTP token); the host's tokens are base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,512}$/;

/** The subprotocols a page offers; without a usable token, only the panel's (the host refuses it). */
export function socketProtocols(token: string | null): string[] {
  return token !== null && TOKEN_PATTERN.test(token)
    ? [PANEL_SOCKET_PROTOCOL, `${TOKEN_PREFIX}${token}`]
    : [PANEL_SOCKET_PROTOCOL];
}

/** The token a `Sec-WebSocket-Protocol` request header carries, or null. */
export function tokenFromProtocols(header: string | undefined): string | null {
  for (const offered of (header ?? '').split(',')) {
    const name = offered.trim();
    if (name.startsWith(TOKEN_PREFIX)) return name.slice(TOKEN_PREFIX.length);
  }
  return null;
}
