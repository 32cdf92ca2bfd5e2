import type * as acp from '@agentclientprotocol/sdk';
import type { EditorFiles } from '../agent/editor-files.ts';
import type { AcpClient } from './acp-session.ts';

// The client's file system, as ACP intends, where it declares it at initialize
// (`clientCapabilities.fs`): `fs/read_text_file` for read_file (the editor's buffer) and
// `fs/write_text_file` for write_file (agent/editor-files.ts).

/** The files a client declared it serves, for the session `sessionId` names (known once it is open). */
export function clientFiles(
  capabilities: acp.ClientCapabilities | undefined,
  client: AcpClient,
  sessionId: () => string,
): EditorFiles | null {
  const fs = capabilities?.fs;
  if (fs?.readTextFile !== true) return null;
  return {
    read: async (path) => (await client.request('fs/read_text_file', { sessionId: sessionId(), path })).content,
    ...(fs.writeTextFile === true
      ? {
          write: async (path: string, content: string) => {
            await client.request('fs/write_text_file', { sessionId: sessionId(), path, content });
          },
        }
      : {}),
  };
}
