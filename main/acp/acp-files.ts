import type * as acp from '@agentclientprotocol/sdk';
import type { EditorFiles } from '../agent/editor-files.ts';
import type { AcpClient } from './acp-session.ts';

// The client's file system, as ACP intends, where it declares it at initialize
// (`clientCapabilities.fs`): `fs/read_text_file` for read_file (the editor's buffer) and
// `fs/write_text_file` for write_file and patch_file (agent/editor-files.ts).

/**
 * The files of a client that declared it both reads and writes them, for the session `sessionId`
 * names (known once it is open); null otherwise. A client that only reads is not used: the model
 * would read a buffer's hash and then write against the disk's, and be told the file changed.
 */
export function clientFiles(
  capabilities: acp.ClientCapabilities | undefined,
  client: AcpClient,
  sessionId: () => string,
): EditorFiles | null {
  const fs = capabilities?.fs;
  if (fs?.readTextFile !== true || fs.writeTextFile !== true) return null;
  return {
    read: async (path) => (await client.request('fs/read_text_file', { sessionId: sessionId(), path })).content,
    write: async (path, content) => {
      await client.request('fs/write_text_file', { sessionId: sessionId(), path, content });
    },
  };
}
