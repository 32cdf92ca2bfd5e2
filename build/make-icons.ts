// Writes the application icon set into build/: `node build/make-icons.ts`.
// The files are committed, so packaging never needs electron-builder's icon converter (which would
// download a toolset): Linux reads build/icons/NxN.png, macOS build/icon.icns, Windows build/icon.ico.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { drawIcon } from './icon-art.ts';
import { encodeIcns, encodeIco, encodePng } from './icon-formats.ts';
import type { RgbaImage } from './icon-formats.ts';

const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512, 1024];
const MAC_SIZES = [16, 32, 64, 128, 256, 512, 1024];
const WINDOWS_SIZES = [16, 24, 32, 48, 64, 128, 256];

/** Every icon file by its path relative to build/. */
export function iconFiles(): Map<string, Buffer> {
  const images = new Map<number, RgbaImage>();
  const image = (size: number): RgbaImage => {
    const known = images.get(size);
    if (known) return known;
    const drawn = drawIcon(size);
    images.set(size, drawn);
    return drawn;
  };
  const files = new Map<string, Buffer>();
  files.set('icon.png', encodePng(image(1024)));
  for (const size of LINUX_SIZES) files.set(`icons/${size}x${size}.png`, encodePng(image(size)));
  files.set('icon.icns', encodeIcns(new Map(MAC_SIZES.map((size) => [size, encodePng(image(size))]))));
  files.set('icon.ico', encodeIco(WINDOWS_SIZES.map(image)));
  return files;
}

if (import.meta.main) {
  const buildDir = import.meta.dirname;
  for (const [name, bytes] of iconFiles()) {
    const path = join(buildDir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    console.log(`${name}  ${bytes.length} bytes`);
  }
}
