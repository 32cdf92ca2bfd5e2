import type { Result } from '../../protocol/api.ts';
import type {
  FileMatches,
  ImageMediaType,
  ImageRef,
  McpResourceMatch,
  UserCommandList,
} from '../../protocol/composer.ts';
import type { FileView } from '../../protocol/files.ts';
import type { McpChange, McpScreen } from '../../protocol/mcp.ts';
import type { ElicitAnswer, ElicitationView } from '../../protocol/elicitation.ts';
import type { HooksScreen } from '../../protocol/hooks.ts';
import type { ActionKit } from './action-kit.ts';

// What the panel asks of the workspace and the host: links and files, the composer's commands,
// prompt history, `@` matches and images, MCP servers, their resources, prompts and forms, hooks.

export interface WorkspaceActions {
  openLink(url: string): Promise<void>;
  /** The person's slash commands; a failure is reported and leaves the panel's commands only. */
  userCommands(): Promise<UserCommandList>;
  /** This workspace's prompts, newest last (kept by the host); null when they cannot be had (the banner says why). */
  promptHistory(): Promise<string[] | null>;
  /** Remembers a prompt sent; the history after it, or null when it could not be saved (the banner says why). */
  rememberPrompt(text: string): Promise<string[] | null>;
  /** Forgets a prompt on disk too; the history after it, or null (the banner says why). */
  forgetPrompt(text: string): Promise<string[] | null>;
  /** Hands the host the prompts an older version kept in the page's storage; the history after it, or null. */
  importPrompts(prompts: string[]): Promise<string[] | null>;
  /** Fuzzy matches for `@`; null when the request failed (the banner says why). */
  findFiles(query: string): Promise<FileMatches | null>;
  /** Hands a pasted or dropped image (base64) to the panel for the next message; the error is the caller's to show. */
  attachImage(mediaType: ImageMediaType, data: string): Promise<Result<ImageRef>>;
  /** One image of the open session, for its thumbnail; null when it cannot be had. */
  image(sha256: string): Promise<{ media_type: ImageMediaType; data: string } | null>;
  /** The bytes of an MCP result's binary resource (base64), for Save…; the error is the caller's to show. */
  toolBlob(sha256: string): Promise<Result<{ data: string }>>;
  /** A resource an MCP server offers (a resource link), for Save…; the error is the caller's to show. */
  mcpResource(server: string, uri: string): Promise<Result<{ data: string; mime_type?: string }>>;
  /** The MCP servers screen, after `change` when one is given; a failure is the screen's to show. */
  mcpServers(change?: McpChange): Promise<Result<McpScreen>>;
  /** The running MCP servers' resources matching `query`, for `@`; empty when none can be had. */
  mcpResources(query: string): Promise<McpResourceMatch[]>;
  /** An MCP server's prompt with its arguments as a message's text; the error is the caller's to show. */
  mcpPrompt(server: string, name: string, args: Record<string, string>): Promise<Result<{ text: string }>>;
  /** The forms MCP servers wait on (elicitation); a failure is the caller's to show. */
  mcpForms(): Promise<Result<ElicitationView[]>>;
  /** The person's answer to one; a refusal (content the form does not take) is the form's to show. */
  answerMcpForm(answer: ElicitAnswer): Promise<Result<void>>;
  /** Called with the waiting forms whenever one comes or goes. */
  onMcpForms(callback: (forms: ElicitationView[]) => void): () => void;
  /** The workspace's hooks, after approving `ids` when given; a failure is the section's to show. */
  hooks(approve?: string[]): Promise<Result<HooksScreen>>;
  /** A page of a workspace file as it is now (the file viewer, a diff's folded lines); the error is the caller's to show. */
  readFile(path: string, offset?: number, limit?: number): Promise<Result<FileView>>;
  /** Which of these paths are workspace files; null when the host could not say. */
  existingFiles(paths: string[]): Promise<string[] | null>;
  /** Opens a file link: the person's editor when the desktop app is set to, else the panel's viewer at `line`. */
  openFile(path: string, line?: number): Promise<void>;
}

export function createWorkspaceActions({
  api,
  state,
  report,
  reportedValue,
  reportAbout,
  shown,
}: ActionKit): WorkspaceActions {
  return {
    openLink: async (url) => void report(await api.openLink(url)),
    userCommands: async () => reportedValue(await api.userCommands()) ?? { commands: [], problems: [] },
    promptHistory: async () => reportedValue(await api.promptHistory()),
    rememberPrompt: async (text) => reportedValue(await api.rememberPrompt(text)),
    forgetPrompt: async (text) => reportedValue(await api.forgetPrompt(text)),
    importPrompts: async (prompts) => reportedValue(await api.importPrompts(prompts)),
    findFiles: async (query) => reportedValue(await api.findFiles(query)),
    attachImage: (mediaType, data) => api.attachImage(mediaType, data),
    image: async (sha256) => {
      const image = await api.image(sha256);
      return image.ok ? image.value : null;
    },
    toolBlob: (sha256) => api.toolBlob(sha256),
    mcpResource: (server, uri) => api.mcpResource(server, uri),
    mcpServers: (change) => (change ? api.changeMcp(change) : api.mcpServers()),
    mcpResources: async (query) => {
      const found = await api.mcpResources(query);
      return found.ok ? found.value : [];
    },
    mcpPrompt: (server, name, args) => api.mcpPrompt(server, name, args),
    mcpForms: () => api.mcpElicitations(),
    answerMcpForm: (answer) => api.answerElicitation(answer),
    onMcpForms: (callback) => api.onElicitations(callback),
    hooks: (approve) => (approve ? api.approveHooks(approve) : api.hooks()),
    readFile: (path, offset, limit) => api.readFile(path, offset, limit),
    existingFiles: async (paths) => {
      const found = await api.existingFiles(paths);
      return found.ok ? found.value : null;
    },
    openFile: async (path, line) => {
      const about = shown();
      const opened = await api.openFile(path, line);
      if (reportAbout(opened, about) && opened.ok && opened.value === 'viewer')
        state().openFileViewer({ path, ...(line === undefined ? {} : { line }) });
    },
  };
}
