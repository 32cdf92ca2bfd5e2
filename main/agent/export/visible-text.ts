// Text an export shows, made safe to read: a control character or a bidirectional override in a
// message or a tool's output would hide or reorder what is around it in an editor or a browser.

/**
 * Characters a reader cannot see, or that reorder what is around them, as visible marks: C0 controls
 * but tab and newline as their control pictures; C1 controls, bidirectional overrides and isolates by
 * code point.
 */
export function visibleControls(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (char) =>
      String.fromCharCode(char === '\u007f' ? 0x2421 : 0x2400 + char.charCodeAt(0)),
    )
    .replace(
      /[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/g,
      (char) => `‹U+${char.charCodeAt(0).toString(16).toUpperCase()}›`,
    );
}
