// ANSI colours in command output, and nothing else of the terminal's language. Only SGR sequences
// (`ESC [ … m`) are read, and only for foreground colour, bold, dim, italic and underline: no
// background colours or "concealed" text, so output cannot hide part of itself. Every other escape
// sequence stays in the text, where revealPieces shows its ESC as ⟨ESC⟩.

export interface AnsiStyle {
  /** 0–15: the theme's terminal colours; a string: an exact `rgb(…)` colour (256-colour and true-colour codes). */
  fg: number | string | null;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
}

export interface AnsiRun {
  text: string;
  style: AnsiStyle;
}

export const PLAIN: Readonly<AnsiStyle> = { fg: null, bold: false, dim: false, italic: false, underline: false };

const SGR = /\x1b\[([0-9;:]*)m/g;

/** The text cut at its SGR sequences, each run with the style in force; the sequences themselves dropped. */
export function ansiRuns(text: string): AnsiRun[] {
  const runs: AnsiRun[] = [];
  let style: AnsiStyle = PLAIN;
  let from = 0;
  SGR.lastIndex = 0;
  for (let found = SGR.exec(text); found !== null; found = SGR.exec(text)) {
    if (found.index > from) runs.push({ text: text.slice(from, found.index), style });
    style = applySgr(style, found[1]!);
    from = found.index + found[0].length;
  }
  if (from < text.length) runs.push({ text: text.slice(from), style });
  return runs;
}

/** Whether the text holds any SGR sequence (so plain text skips the work). */
export function hasAnsi(text: string): boolean {
  return text.includes('\x1b[');
}

function applySgr(current: AnsiStyle, parameters: string): AnsiStyle {
  if (parameters === '' || parameters === '0') return PLAIN;
  const codes = parameters
    .replaceAll(':', ';')
    .split(';')
    .map((part) => (part === '' ? 0 : Number(part)));
  const style = { ...current };
  for (let index = 0; index < codes.length; index += 1) {
    const code = codes[index]!;
    if (code === 0) Object.assign(style, PLAIN);
    else if (code === 1) style.bold = true;
    else if (code === 2) style.dim = true;
    else if (code === 3) style.italic = true;
    else if (code === 4) style.underline = true;
    else if (code === 22) style.bold = style.dim = false;
    else if (code === 23) style.italic = false;
    else if (code === 24) style.underline = false;
    else if (code >= 30 && code <= 37) style.fg = code - 30;
    else if (code >= 90 && code <= 97) style.fg = code - 90 + 8;
    else if (code === 39) style.fg = null;
    else if (code === 38 || code === 48) {
      const [colour, used] = extendedColour(codes, index + 1);
      if (code === 38 && colour !== undefined) style.fg = colour;
      index += used;
    }
  }
  return style;
}

/** `5;n` (256 colours) or `2;r;g;b` after a 38/48: the colour and how many codes it took. */
function extendedColour(codes: number[], at: number): [number | string | undefined, number] {
  if (codes[at] === 5) {
    const index = codes[at + 1];
    if (index === undefined || index > 255) return [undefined, 2];
    return [index < 16 ? index : rgbOf256(index), 2];
  }
  if (codes[at] === 2) {
    const [r, g, b] = codes.slice(at + 1, at + 4).map((value) => Math.min(255, Math.max(0, value)));
    return r === undefined || g === undefined || b === undefined ? [undefined, 4] : [`rgb(${r}, ${g}, ${b})`, 4];
  }
  return [undefined, 0];
}

function rgbOf256(index: number): string {
  if (index >= 232) {
    const level = 8 + (index - 232) * 10;
    return `rgb(${level}, ${level}, ${level})`;
  }
  const cube = index - 16;
  const level = (value: number) => (value === 0 ? 0 : 55 + value * 40);
  return `rgb(${level(Math.floor(cube / 36))}, ${level(Math.floor(cube / 6) % 6)}, ${level(cube % 6)})`;
}
