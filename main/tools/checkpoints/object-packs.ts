import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { syncFolder } from '../files/sync-folder.ts';

// Many small objects in one file. A first checkpoint of a 10 000-file workspace would otherwise
// create 10 000 files in the store, and creating a file costs far more than writing its bytes
// (bench/checkpoints.ts): the objects a scan finds new are gathered and written as one pack.
//
// A pack: the objects' bytes one after another, then its index (JSON: [hash, offset, length][]),
// then a 16-byte trailer: the magic `AEPACK01` and the index's offset (64-bit, big-endian). It is
// written under a temporary name, flushed to disk (the checkpoint's one fsync), renamed, and its
// folder flushed: a pack is either whole under its name or absent. Packs are never changed; pruning
// writes the objects still needed to a new pack and deletes the old one.

const MAGIC = 'AEPACK01';
const TRAILER = 16;

/** Where one object lies in a pack. */
export interface PackedAt {
  file: string;
  offset: number;
  length: number;
}

export interface WrittenPack {
  file: string;
  bytes: number;
  objects: Map<string, PackedAt>;
}

/** Writes `objects` to a new pack in `folder` and returns where each lies. */
export async function writePack(folder: string, objects: ReadonlyMap<string, Buffer>): Promise<WrittenPack> {
  const file = path.join(folder, `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}.pack`);
  const index: [string, number, number][] = [];
  const located = new Map<string, PackedAt>();
  const chunks: Buffer[] = [];
  let offset = 0;
  for (const [hash, data] of objects) {
    index.push([hash, offset, data.byteLength]);
    located.set(hash, { file, offset, length: data.byteLength });
    chunks.push(data);
    offset += data.byteLength;
  }
  const indexBytes = Buffer.from(JSON.stringify(index));
  const trailer = Buffer.alloc(TRAILER);
  trailer.write(MAGIC, 0, 'ascii');
  trailer.writeBigUInt64BE(BigInt(offset), 8);
  chunks.push(indexBytes, trailer);
  const temp = `${file}.tmp`;
  try {
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writev(chunks);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
    await syncFolder(folder);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { file, bytes: offset + indexBytes.byteLength + TRAILER, objects: located };
}

/** The objects of the pack `file`; null when it is not a whole pack (it is then of no use). */
export async function readPackIndex(file: string): Promise<{ bytes: number; objects: Map<string, PackedAt> } | null> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size < TRAILER) return null;
    const trailer = Buffer.alloc(TRAILER);
    await handle.read(trailer, 0, TRAILER, size - TRAILER);
    if (trailer.toString('ascii', 0, 8) !== MAGIC) return null;
    const start = Number(trailer.readBigUInt64BE(8));
    if (start > size - TRAILER) return null;
    const indexBytes = Buffer.alloc(size - TRAILER - start);
    await handle.read(indexBytes, 0, indexBytes.byteLength, start);
    const index = JSON.parse(indexBytes.toString('utf8')) as unknown;
    if (!Array.isArray(index)) return null;
    const objects = new Map<string, PackedAt>();
    for (const item of index as unknown[]) {
      if (!Array.isArray(item)) return null;
      const [hash, offset, length] = item as unknown[];
      if (typeof hash !== 'string' || typeof offset !== 'number' || typeof length !== 'number') return null;
      if (offset + length > start) return null;
      objects.set(hash, { file, offset, length });
    }
    return { bytes: size, objects };
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** The bytes of one packed object. */
export async function readPacked(at: PackedAt): Promise<Buffer> {
  const handle = await open(at.file, 'r');
  try {
    const data = Buffer.alloc(at.length);
    const { bytesRead } = await handle.read(data, 0, at.length, at.offset);
    if (bytesRead !== at.length) throw Object.assign(new Error('pack is shorter than its index'), { code: 'ETRUNC' });
    return data;
  } finally {
    await handle.close();
  }
}
