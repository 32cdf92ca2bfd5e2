import type { PanelHandlers } from '../../protocol/api.ts';
import { approveHooks, hooksScreen } from '../agent/hooks.ts';
import { readKeptBlob } from '../agent/mcp.ts';
import { withSkillCommands } from '../agent/skills.ts';
import type { SessionToolset } from '../agent/session-toolset.ts';
import type { ModelDirectory } from '../model/model-directory.ts';
import { loadUserCommands } from './composer/user-commands.ts';
import { imageForPanel, type ImageStore } from './composer/image-store.ts';
import type { WorkspaceIndex } from './composer/workspace-index.ts';
import { attempt } from './panel-results.ts';

// The requests about the workspace and the person's setup rather than the open session: the
// composer's commands, files and images, a model server's models, the MCP servers (and the bytes
// of an MCP result's binary resources, kept in the open session's folder). They answer
// with or without a session.

export interface WorkspaceAccess {
  /** The workspace root, real path. */
  workspace: string;
  /** The app's home, whose `commands/` holds the person's slash commands. */
  home?: string;
  files: WorkspaceIndex;
  images: ImageStore;
  models: ModelDirectory;
  toolset: SessionToolset;
  /** The open session's folder, where the images of its sent messages are kept; null before one. */
  sessionDir(): string | null;
}

type WorkspaceChannel =
  | 'composer:commands'
  | 'composer:files'
  | 'composer:attach-image'
  | 'composer:image'
  | 'tool:blob'
  | 'models:server'
  | 'mcp:servers'
  | 'mcp:change'
  | 'mcp:resource'
  | 'mcp:prompt'
  | 'mcp:resources'
  | 'hooks:list'
  | 'hooks:approve';

export function workspaceHandlers(access: WorkspaceAccess): Pick<PanelHandlers, WorkspaceChannel> {
  const { workspace, home, files, images, models, toolset } = access;
  return {
    'composer:commands': () =>
      attempt(async () => {
        const where = { workspace, ...(home === undefined ? {} : { home }) };
        const own = await withSkillCommands(await loadUserCommands(where), where);
        // The running MCP servers' prompts (`/mcp__server__prompt`); a command file of the same name wins.
        const prompts = await toolset.mcpPromptCommands();
        const taken = new Set(own.commands.map((command) => command.name));
        return {
          commands: [...own.commands, ...prompts.commands.filter((command) => !taken.has(command.name))],
          problems: [...own.problems, ...prompts.problems],
        };
      }),
    'composer:files': ({ query }) => attempt(() => files.find(query)),
    'composer:attach-image': ({ media_type, data }) => attempt(async () => images.attach(media_type, data)),
    'composer:image': ({ sha256 }) => attempt(() => imageForPanel(images, access.sessionDir(), sha256)),
    'tool:blob': ({ sha256 }) => attempt(() => readKeptBlob(access.sessionDir(), sha256)),
    'models:server': ({ base_url }) => attempt(() => models.choices(base_url)),
    'mcp:servers': () => attempt(() => toolset.mcpScreen()),
    'mcp:change': (change) => attempt(() => toolset.mcpChange(change)),
    'mcp:resource': ({ server, uri }) => attempt(() => toolset.mcpResource(server, uri)),
    'mcp:resources': ({ query }) => attempt(() => toolset.mcpResourceMatches(query)),
    'mcp:prompt': ({ server, name, arguments: args }) =>
      attempt(async () => ({ text: await toolset.mcpPromptText(server, name, args) })),
    'hooks:list': () => attempt(() => hooksScreen(home, workspace)),
    'hooks:approve': ({ ids }) => attempt(() => approveHooks(home, workspace, ids)),
  };
}
