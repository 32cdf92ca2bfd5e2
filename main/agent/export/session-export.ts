import type { SessionExport, SessionExportFormat } from '../../../protocol/session-export.ts';
import { readSessionFile } from '../../session/replay.ts';
import { locateSession } from '../../session/session-places.ts';
import { assertSessionId, sessionFileOf } from '../../session/session-log.ts';
import { readTitle } from '../../session/session-titles.ts';
import { exportEntries } from './export-entries.ts';
import { exportHtml } from './export-html.ts';
import { exportMarkdown } from './export-markdown.ts';
import { environmentSecrets, SecretRedactor, type Secret } from './secret-redaction.ts';
import { visibleControls } from './visible-text.ts';

// A session exported for reading elsewhere: Markdown, or a self-contained HTML page drawn like the
// panel, made from the session file's replay (the same events the panel shows, repairs included:
// a call a crash left open reads as interrupted). Secrets never leave: the values of environment
// variables named like secrets and the keys the app keeps are replaced wherever they appear, in
// the finished document, whatever part of the session carried them.

/** Where the sessions folder is (`--sessions`, $AETHERCODEX_SESSIONS…), for hosts that export by id. */
export { sessionsRoot } from '../../session/paths.ts';

export interface ExportHeading {
  title: string;
  id: string;
  workspace: string;
  model: string;
  created: string;
  updated: string;
  /** Set for an agent's session: the agent, the session whose call started it, and that call. */
  agent?: { name: string; parent: string; call_id: string };
}

export interface SessionExportRequest {
  /** The sessions folder. */
  root: string;
  id: string;
  format: SessionExportFormat;
  /** Values the export must not contain besides the environment's secrets: the keys the app keeps. */
  secrets?: readonly Secret[];
  /** Whose secret-named variables are redacted; default this process's environment. */
  env?: NodeJS.ProcessEnv;
}

const MIME: Record<SessionExportFormat, string> = { markdown: 'text/markdown', html: 'text/html' };
const EXTENSION: Record<SessionExportFormat, string> = { markdown: 'md', html: 'html' };

export async function exportSession(request: SessionExportRequest): Promise<SessionExport> {
  assertSessionId(request.id);
  // An agent's session is found by its id too, under its parent's folder.
  const folder = (await locateSession(request.root, request.id))?.folder ?? request.root;
  const replay = await readSessionFile(sessionFileOf(folder, request.id));
  const { header } = replay;
  const heading: ExportHeading = {
    title: (await readTitle(folder, request.id)) ?? (replay.title || `Session ${header.id}`),
    id: header.id,
    workspace: header.workspace,
    model: header.model,
    created: header.created_at,
    updated: replay.updatedAt,
    ...(header.agent_of
      ? { agent: { name: header.agent_of.agent, parent: header.agent_of.session, call_id: header.agent_of.call_id } }
      : {}),
  };
  const redactor = new SecretRedactor([...environmentSecrets(request.env ?? process.env), ...(request.secrets ?? [])]);
  const entries = redactor.redactAll(exportEntries(replay.events));
  const shown = redactor.redactAll(heading);
  const document =
    request.format === 'html' ? exportHtml(shown, entries) : visibleControls(exportMarkdown(shown, entries));
  return {
    name: `${fileStem(shown.title, header.id)}.${EXTENSION[request.format]}`,
    mime: MIME[request.format],
    text: redactor.redact(document),
  };
}

/** A file name from the session's title: words and dashes, else its id. */
function fileStem(title: string, id: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return words === '' ? `session-${id}` : words;
}
