// Syntax colours that stay readable where the panel draws code: each theme's token colour is
// darkened (light theme) or lightened (dark theme) just enough to reach a contrast of 4.5:1 (WCAG
// AA) on every background code sits on — a code block, an added line, a removed line. Most colours
// of the themes already do and are kept as they are.

/** The backgrounds code is drawn on, per theme: --surface, --surface-2, --add-bg, --remove-bg of base.css. */
export const CODE_BACKGROUNDS = {
  light: ['#ffffff', '#f1f1ee', '#e6f6ea', '#fbe9ea'],
  dark: ['#1c1f23', '#23272c', '#15301e', '#3a1b1e'],
} as const;

export const MIN_CONTRAST = 4.5;

type Rgb = [number, number, number];

function parse(hex: string): Rgb | null {
  const match = /^#([0-9a-f]{6})(?:[0-9a-f]{2})?$/i.exec(hex.trim());
  if (!match) return null;
  const value = Number.parseInt(match[1]!, 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function luminance([r, g, b]: Rgb): number {
  const [lr, lg, lb] = [r, g, b].map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
}

/** The WCAG contrast ratio of two `#rrggbb` colours. */
export function contrast(one: string, other: string): number {
  const a = parse(one);
  const b = parse(other);
  if (!a || !b) return 21;
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const hex = (rgb: Rgb) =>
  `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`.toUpperCase();

const cache = new Map<string, string>();

/** `colour`, moved toward black (light theme) or white (dark) until it reads at 4.5:1 on all of that theme's backgrounds. */
export function readableColour(colour: string, theme: keyof typeof CODE_BACKGROUNDS): string {
  const key = `${theme}:${colour}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  const rgb = parse(colour);
  let result = colour;
  if (rgb) {
    const target = theme === 'light' ? 0 : 255;
    const reads = (candidate: string) =>
      CODE_BACKGROUNDS[theme].every((background) => contrast(candidate, background) >= MIN_CONTRAST);
    for (let step = 0; step <= 20 && !reads(result); step += 1)
      result = hex(rgb.map((channel) => channel + ((target - channel) * step) / 20) as Rgb);
  }
  cache.set(key, result);
  return result;
}
