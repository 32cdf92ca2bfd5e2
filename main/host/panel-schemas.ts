import { z } from 'zod';
import { parseRuleLists, ruleListsSchema } from '../tools/permission-rules.ts';
import type { PanelChannel, PanelHandlers, RequestOf, ResponseOf } from '../../protocol/api.ts';
import { maxEditFileMibSchema } from './settings-store.ts';

// The edge of the panel API: every request payload that arrives over IPC or the web socket is
// validated here before a handler sees it. Both the Electron shell and the web host use this.

const none = z.union([z.undefined(), z.null()]).transform(() => undefined);
const callId = z.string().min(1).max(256);
/** Session ids become file names: no separators, no dot-dot, nothing hidden. */
const sessionId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a session id is letters, digits, dot, dash or underscore')
  .refine((id) => !id.includes('..'), 'a session id never contains ..');
const effort = z.enum(['off', 'low', 'medium', 'high']);
const permissionMode = z.enum(['ask', 'auto', 'read-only', 'bypass']);
/** Every rule must parse: the person sees why one does not. */
const permissionRules = ruleListsSchema.strict().superRefine((lists, context) => {
  try {
    parseRuleLists(lists);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
  }
});
const theme = z.enum(['system', 'light', 'dark']);
const provider = z.enum(['anthropic', 'openai']);

// No `update_feed`: where installers are downloaded from is set by whoever installs the app
// (AETHERCODEX_UPDATE_FEED, or settings.json by hand), never by the page. A page that could name
// the feed and turn updates on could have the app install whatever that feed serves.
const settingsPatchSchema = z
  .object({
    model: z.string().min(1).max(512),
    effort,
    permission_mode: permissionMode,
    permission_rules: permissionRules,
    theme,
    send_key: z.enum(['enter', 'ctrl-enter']),
    updates_enabled: z.boolean(),
    max_edit_file_mib: maxEditFileMibSchema,
  })
  .partial()
  .strict();

type RequestSchemas = { [C in PanelChannel]: z.ZodType<RequestOf<C>, unknown> };

const requestSchemas: RequestSchemas = {
  'panel:info': none,
  'turn:send': z.object({ text: z.string().min(1).max(1_000_000) }).strict(),
  'turn:stop': none,
  'tool:cancel': z.object({ call_id: callId }).strict(),
  'tool:approve': z.object({ call_id: callId, answer: z.enum(['once', 'session', 'deny']) }).strict(),
  'tool:content': z.object({ call_id: callId }).strict(),
  'session:list': none,
  'session:open': z.object({ id: sessionId }).strict(),
  'session:new': none,
  'session:delete': z.object({ id: sessionId }).strict(),
  'settings:get': none,
  'settings:update': settingsPatchSchema,
  'settings:set-key': z.object({ provider, key: z.string().trim().min(1).max(4096).nullable() }).strict(),
  'link:open': z.object({ url: z.string().min(1).max(2048) }).strict(),
};

export const PANEL_CHANNELS = Object.keys(requestSchemas) as PanelChannel[];

export function isPanelChannel(name: unknown): name is PanelChannel {
  return typeof name === 'string' && Object.hasOwn(requestSchemas, name);
}

/** Channels whose response is not a `Result`: an invalid request to them is a rejection instead. */
const PLAIN_RESPONSE: ReadonlySet<PanelChannel> = new Set(['panel:info']);

export class InvalidRequestError extends Error {
  override name = 'InvalidRequestError';
}

function parseRequest<C extends PanelChannel>(
  channel: C,
  raw: unknown,
): { ok: true; value: RequestOf<C> } | { ok: false; error: string } {
  const parsed = (requestSchemas[channel] as z.ZodType<RequestOf<C>, unknown>).safeParse(raw);
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
    return failWith(channel, `${channel} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function failWith<C extends PanelChannel>(channel: C, error: string): ResponseOf<C> {
  if (PLAIN_RESPONSE.has(channel)) throw new InvalidRequestError(error);
  return { ok: false, error } as ResponseOf<C>;
}
