// Text from a model, a tool or a file never reaches the terminal able to drive it. Every control
// character a terminal acts on is shown as a visible stand-in instead: ESC as `␛`, so OSC 52
// (clipboard), OSC 8 (links), titles, screen clears and colours print as harmless `␛]52;…` text;
// the other C0 controls as their Control Pictures (`␇`, `␈`, `␍`), DEL as `␡`, and the C1 controls
// (which some terminals treat like ESC sequences) and bidirectional overrides (which reorder what is
// shown) as `‹U+202E›`. Tab and newline stay; CRLF becomes a plain newline. Colours the CLI adds
// itself are written around text that has already passed through here.

// C0 except tab (09) and newline (0A); DEL and C1; ALM, LRM, RLM, the embeddings/overrides and isolates.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every character a terminal could act on replaced by a visible stand-in. */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, visible);
}

function visible(character: string): string {
  const code = character.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `‹U+${code.toString(16).toUpperCase().padStart(4, '0')}›`;
}

/**
 * Text streamed in pieces: a CR that ends one piece may be the first half of a CRLF, so it is held
 * back until the next piece (or the end) says which it is.
 */
export class TerminalStream {
  private heldReturn = false;

  /** The safe text of the next piece. */
  push(piece: string): string {
    const text = (this.heldReturn ? '\r' : '') + piece;
    this.heldReturn = text.endsWith('\r');
    return terminalSafe(this.heldReturn ? text.slice(0, -1) : text);
  }

  /** What is still held back, once the stream has ended. */
  end(): string {
    const rest = this.heldReturn ? terminalSafe('\r') : '';
    this.heldReturn = false;
    return rest;
  }
}

/**
 * JSON for a terminal: what JSON.stringify leaves raw (DEL, the C1 controls, bidirectional
 * overrides, line and paragraph separators) as `\u` escapes. Those characters only occur inside
 * JSON strings, where the escape is the same value, so the line still parses to what it was.
 */
export function terminalJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * How the transcript looks: colour (and rendered Markdown) on a terminal, never when NO_COLOR is
 * set (no-color.org), and forced by FORCE_COLOR (other than 0 or false) where stdout is not one; a
 * running command's output redrawn in place only on a real terminal.
 */
export function terminalStyle(
  isTTY: boolean,
  env: Record<string, string | undefined>,
): { color: boolean; live: boolean } {
  const force = env['FORCE_COLOR'];
  const forced = force !== undefined && force !== '0' && force !== 'false';
  const color = !env['NO_COLOR'] && (isTTY || forced);
  return { color, live: isTTY };
}

export type Tone = 'error' | 'muted' | 'notice' | 'ok';

const TONES: Record<Tone, string> = { error: '31', muted: '2', notice: '33', ok: '32' };

/** The CLI's own colour around text already made safe; plain text when colour is off. */
export function toned(safeText: string, tone: Tone | undefined, color: boolean): string {
  return color && tone ? `\u001b[${TONES[tone]}m${safeText}\u001b[0m` : safeText;
}
