import { z } from 'zod';
import { parseRuleLists, ruleListsSchema } from '../agent/session-permissions.ts';
import type { PanelChannel, PanelHandlers, RequestOf, ResponseOf } from '../../protocol/api.ts';
import { errorMessage } from '../../protocol/errors.ts';
import { answersWithResult } from '../../protocol/panel-client.ts';
import { editorCommandSchema, openFilesInSchema } from '../../protocol/files.ts';
import { PANEL_REQUEST_SCHEMAS, type PanelRequestSchema } from '../../protocol/panel-schemas.ts';
import { permissionModeSchema, reasoningEffortSchema, sendKeySchema, themeSchema } from '../../protocol/values.ts';
import { compactAtPercentSchema, maxEditFileMibSchema } from './settings-store.ts';
import { checkpointMaxFileMibSchema, checkpointStorageMibSchema } from './checkpoint-setting.ts';

// The edge of the panel API: every request payload that arrives over IPC or the web socket is
// validated here, with the schemas of protocol/panel-schemas.ts, before a handler sees it. Both the
// Electron shell and the web host use this.

/** Every rule must parse: the person sees why one does not. */
const permissionRules = ruleListsSchema.strict().superRefine((lists, context) => {
  try {
    parseRuleLists(lists);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
  }
});

// No `update_feed`: where installers are downloaded from is set by whoever installs the app
// (AETHERCODEX_UPDATE_FEED, or settings.json by hand), never by the page. A page that could name
// the feed and turn updates on could have the app install whatever that feed serves.
const settingsPatchSchema = z
  .object({
    model: z.string().min(1).max(512),
    effort: reasoningEffortSchema,
    permission_mode: permissionModeSchema,
    permission_rules: permissionRules,
    theme: themeSchema,
    send_key: sendKeySchema,
    updates_enabled: z.boolean(),
    max_edit_file_mib: maxEditFileMibSchema,
    compact_at_percent: compactAtPercentSchema,
    checkpoints_enabled: z.boolean(),
    checkpoint_storage_mib: checkpointStorageMibSchema,
    checkpoint_max_file_mib: checkpointMaxFileMibSchema,
    open_files_in: openFilesInSchema,
    editor_command: editorCommandSchema,
  })
  .partial()
  .strict();

const requestSchemas: { [C in PanelChannel]: PanelRequestSchema<C> } = {
  ...PANEL_REQUEST_SCHEMAS,
  'settings:update': settingsPatchSchema,
};

export const PANEL_CHANNELS = Object.keys(requestSchemas) as PanelChannel[];

export function isPanelChannel(name: unknown): name is PanelChannel {
  return typeof name === 'string' && Object.hasOwn(requestSchemas, name);
}

export class InvalidRequestError extends Error {
  override name = 'InvalidRequestError';
}

function parseRequest<C extends PanelChannel>(
  channel: C,
  raw: unknown,
): { ok: true; value: RequestOf<C> } | { ok: false; error: string } {
  const parsed = (requestSchemas[channel] as PanelRequestSchema<C>).safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.join('.') || '(request)'}: ${issue.message}`)
    .join('; ');
  return { ok: false, error: `Invalid request for ${channel}: ${problems}.` };
}

/**
 * Validate and dispatch one request. An invalid payload never reaches the handler: for `Result`
 * channels it is an `{ ok: false, error }` value, for the others a rejected promise. A handler that
 * throws is turned into an error value the same way, so one bug cannot take the edge down.
 */
export async function dispatchPanelRequest<C extends PanelChannel>(
  handlers: PanelHandlers,
  channel: C,
  raw: unknown,
): Promise<ResponseOf<C>> {
  const parsed = parseRequest(channel, raw);
  if (!parsed.ok) return failWith(channel, parsed.error);
  const handler = handlers[channel] as (request: RequestOf<C>) => Promise<ResponseOf<C>>;
  try {
    return await handler(parsed.value);
  } catch (error) {
    return failWith(channel, `${channel} failed: ${errorMessage(error)}`);
  }
}

function failWith<C extends PanelChannel>(channel: C, error: string): ResponseOf<C> {
  // A channel whose response is not a `Result` answers an invalid request with a rejection.
  if (!answersWithResult(channel)) throw new InvalidRequestError(error);
  return { ok: false, error } as ResponseOf<C>;
}
