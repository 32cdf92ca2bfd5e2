import { z } from 'zod';
import { parseRuleLists, ruleListsSchema } from '../agent/session-permissions.ts';
import type { PanelChannel, PanelHandlers, RequestOf, ResponseOf } from '../../protocol/api.ts';
import { errorMessage } from '../../protocol/errors.ts';
import { answersWithResult } from '../../protocol/panel-client.ts';
import { PANEL_REQUEST_SCHEMAS, type PanelRequestSchema } from '../../protocol/panel-schemas.ts';
import { SETTINGS_PATCH_SHAPE } from '../../protocol/settings.ts';

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

// The settings the panel may change, as protocol/settings.ts declares them, with the rules checked
// here; the settings of settings.json alone (update_feed, exec_env_*, …) are refused as unknown.
export const settingsPatchSchema = z
  .object({ ...SETTINGS_PATCH_SHAPE, permission_rules: permissionRules })
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
