// The ÆtherCodex emblem, drawn from geometry so every size is rendered sharp rather than scaled:
// a night-violet tile, a gold orbit ring with a pale blue body on it, and a four-pointed star at the
// centre. Shapes are tested per sub-sample (up to 4×4 per pixel), which anti-aliases every edge.
import type { RgbaImage } from './icon-formats.ts';

type Rgb = readonly [number, number, number];

const TOP: Rgb = [0x3a, 0x1f, 0x78];
const BOTTOM: Rgb = [0x0e, 0x1a, 0x3d];
const GOLD: Rgb = [0xf0, 0xd5, 0x90];
const STAR: Rgb = [0xff, 0xf3, 0xcf];
const BODY: Rgb = [0x7f, 0xd4, 0xff];

const MARGIN = 0.08;
const CORNER = 0.2;
const RING_RADIUS = 0.28;
const RING_WIDTH = 0.05;
const STAR_REACH = 0.17;
const BODY_RADIUS = 0.055;
const BODY_GAP = 0.085;
const BODY_X = 0.5 + RING_RADIUS * Math.SQRT1_2;
const BODY_Y = 0.5 - RING_RADIUS * Math.SQRT1_2;

// Small sizes need the finest edges; at 512 px and up a pixel is too small for 2×2 to show.
function subsamplesFor(size: number): number {
  return size <= 64 ? 4 : size <= 256 ? 3 : 2;
}

function insideTile(x: number, y: number): boolean {
  const half = 0.5 - MARGIN;
  const qx = Math.max(Math.abs(x - 0.5) - (half - CORNER), 0);
  const qy = Math.max(Math.abs(y - 0.5) - (half - CORNER), 0);
  return Math.abs(x - 0.5) <= half && Math.abs(y - 0.5) <= half && qx * qx + qy * qy <= CORNER * CORNER;
}

function background(y: number): Rgb {
  const t = Math.min(Math.max((y - MARGIN) / (1 - 2 * MARGIN), 0), 1);
  return [TOP[0] + (BOTTOM[0] - TOP[0]) * t, TOP[1] + (BOTTOM[1] - TOP[1]) * t, TOP[2] + (BOTTOM[2] - TOP[2]) * t];
}

/** The colour at one point of the unit square, or null where the icon is transparent. */
function colourAt(x: number, y: number): Rgb | null {
  if (!insideTile(x, y)) return null;
  const bx = x - BODY_X;
  const by = y - BODY_Y;
  const bodyDistance = Math.hypot(bx, by);
  if (bodyDistance <= BODY_RADIUS) return BODY;
  if (bodyDistance <= BODY_GAP) return background(y);
  const dx = x - 0.5;
  const dy = y - 0.5;
  if (Math.abs(Math.hypot(dx, dy) - RING_RADIUS) <= RING_WIDTH / 2) return GOLD;
  // An astroid, |x|^(2/3) + |y|^(2/3) <= r^(2/3): a star with concave sides.
  if (Math.abs(dx) ** (2 / 3) + Math.abs(dy) ** (2 / 3) <= STAR_REACH ** (2 / 3)) return STAR;
  return background(y);
}

/** The emblem rendered at `size`×`size` pixels. */
export function drawIcon(size: number): RgbaImage {
  const pixels = new Uint8Array(size * size * 4);
  const grid = subsamplesFor(size);
  const samples = grid * grid;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < grid; sy++) {
        for (let sx = 0; sx < grid; sx++) {
          const colour = colourAt((px + (sx + 0.5) / grid) / size, (py + (sy + 0.5) / grid) / size);
          if (colour === null) continue;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          covered++;
        }
      }
      const at = (py * size + px) * 4;
      if (covered === 0) continue;
      pixels[at] = Math.round(r / covered);
      pixels[at + 1] = Math.round(g / covered);
      pixels[at + 2] = Math.round(b / covered);
      pixels[at + 3] = Math.round((255 * covered) / samples);
    }
  }
  return { size, pixels };
}
