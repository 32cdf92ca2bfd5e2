import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

// The binary resources of an MCP tool's result (embedded blobs): kept in the session's folder by the
// sha256 of their bytes, as a result's images are, so the card's echo names them instead of carrying
// them, and the panel's Save… reads them back (`tool:blob`) in this session or after a reopen.

export const BLOBS_FOLDER = 'blobs';
/** The most resources (blobs and links) one result shows on its card. */
export const MAX_RESULT_RESOURCES = 20;

export interface KeptBlob {
  sha256: string;
  bytes: number;
}

/** What was kept of each blob of a result, by the blob's base64 text; filled as the call runs. */
const kept = new WeakMap<CallToolResult, Map<string, KeptBlob>>();

/** The blobs a result's card may name: the embedded resources with bytes, among its first resources. */
function resultBlobs(result: CallToolResult): string[] {
  const blobs: string[] = [];
  let resources = 0;
  if (!Array.isArray(result.content)) return blobs;
  for (const block of result.content) {
    if (block.type !== 'resource' && block.type !== 'resource_link') continue;
    if ((resources += 1) > MAX_RESULT_RESOURCES) break;
    if (block.type === 'resource' && 'blob' in block.resource && typeof block.resource.blob === 'string') {
      blobs.push(block.resource.blob);
    }
  }
  return blobs;
}

/**
 * Writes each blob of the result to `<sessionDir>/blobs/<sha256>` (0600); null at once for a result
 * without blobs (most are: they wait for nothing). A blob that cannot be written is left out: its
 * card names it without Save…, and the call itself goes on.
 */
export function keepResultBlobs(result: CallToolResult, sessionDir: string): Promise<void> | null {
  const blobs = resultBlobs(result);
  return blobs.length === 0 ? null : keep(result, blobs, path.join(sessionDir, BLOBS_FOLDER));
}

async function keep(result: CallToolResult, blobs: string[], folder: string): Promise<void> {
  const byText = new Map<string, KeptBlob>();
  kept.set(result, byText);
  const made = await mkdir(folder, { recursive: true, mode: 0o700 }).then(
    () => true,
    () => false,
  );
  if (!made) return;
  for (const blob of blobs) {
    if (byText.has(blob)) continue;
    const data = Buffer.from(blob, 'base64');
    const sha256 = createHash('sha256').update(data).digest('hex');
    const written = await writeFile(path.join(folder, sha256), data, { mode: 0o600 }).then(
      () => true,
      () => false,
    );
    if (written) byText.set(blob, { sha256, bytes: data.length });
  }
}

/** The file a blob of this result was kept in, if it was. */
export function keptBlob(result: CallToolResult, blob: string): KeptBlob | undefined {
  return kept.get(result)?.get(blob);
}

/** A kept blob's bytes, base64, for the panel's Save…; the error names the folder and what to do. */
export async function readKeptBlob(sessionDir: string | null, sha256: string): Promise<{ data: string }> {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('A resource is named by its sha256: 64 hex digits.');
  if (sessionDir === null) throw new Error('No session is open: open the session whose card holds this resource.');
  const file = path.join(sessionDir, BLOBS_FOLDER, sha256);
  const data = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      error.code === 'ENOENT'
        ? `The resource ${sha256.slice(0, 12)}… is not in this session's folder (${path.dirname(file)}): it was not kept, or the folder was cleaned. Call the tool again to get it.`
        : `Could not read the resource ${sha256.slice(0, 12)}… in ${path.dirname(file)}: ${error.message}`,
    );
  });
  return { data: data.toString('base64') };
}
