import { elicitAnswerSchema } from './elicitation.ts';
import { z } from 'zod';
import type { PanelChannel, RequestOf } from './api.ts';
import { IMAGE_MEDIA_TYPES, MAX_IMAGE_BYTES, MAX_IMAGES, MAX_MENTIONS } from './composer.ts';
import { mcpChangeSchema } from './mcp.ts';
import { approvalAnswerSchema, permissionModeSchema, providerIdSchema } from './values.ts';
import { reviewChoiceSchema } from './review.ts';
import { todoListSchema } from './todos.ts';
import { sessionExportFormatSchema } from './session-export.ts';
import { rewindApplySchema, rewindRequestSchema } from './rewind.ts';
import { HISTORY_LIMIT, HISTORY_PROMPT_CHARS } from './prompt-history.ts';
import { changesRevertRequestSchema, turnChangesRequestSchema } from './changes.ts';
import { fileOpenRequestSchema, fileReadRequestSchema, filesExistRequestSchema } from './files.ts';

// What each panel request may carry, checked where it arrives (IPC or the web socket, by
// main/host/panel-schemas.ts) before a handler sees it. Typed against the request map, so a channel
// without a schema, or a schema that disagrees with its request type, fails to compile.

const none = z.union([z.undefined(), z.null()]).transform(() => undefined);
const callId = z.string().min(1).max(256);
const processId = z.string().regex(/^p\d{1,9}$/);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'an image is named by its sha256: 64 hex digits');
const blobSha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a resource is named by its sha256: 64 hex digits');
/** Session ids become file names: no separators, no dot-dot, nothing hidden. */
const sessionId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'a session id is letters, digits, dot, dash or underscore')
  .refine((id) => !id.includes('..'), 'a session id never contains ..');

const queuedId = z.string().min(1).max(128);

export type PanelRequestSchema<C extends PanelChannel> = z.ZodType<RequestOf<C>, unknown>;

/**
 * Every channel but `settings:update`, whose patch main completes at its edge with the checks that
 * need main's knowledge (what a permission rule means); its value lists come from values.ts all
 * the same.
 */
export type PanelRequestSchemas = { [C in Exclude<PanelChannel, 'settings:update'>]: PanelRequestSchema<C> };

export const PANEL_REQUEST_SCHEMAS: PanelRequestSchemas = {
  'panel:info': none,
  'turn:send': z
    .object({
      text: z.string().min(1).max(1_000_000),
      mentions: z.array(z.string().min(1).max(4096)).max(MAX_MENTIONS).optional(),
      images: z.array(sha256).max(MAX_IMAGES).optional(),
      mode: z.enum(['steer', 'queue']).optional(),
    })
    .strict(),
  'queue:edit': z.object({ id: queuedId, text: z.string().min(1).max(1_000_000) }).strict(),
  'queue:remove': z.object({ id: queuedId }).strict(),
  'queue:move': z.object({ id: queuedId, to: z.number().int().min(0).max(10_000) }).strict(),
  'queue:send': none,
  'queue:hold': none,
  'todos:set': z.object({ todos: todoListSchema }).strict(),
  'plan:approve': z
    .object({ call_id: callId, plan: z.string().min(1).max(50_000), todos: todoListSchema, mode: permissionModeSchema })
    .strict(),
  'plan:keep': z.object({ call_id: callId }).strict(),
  'turn:stop': none,
  'tool:cancel': z.object({ call_id: callId }).strict(),
  'tool:approve': z
    .object({ call_id: callId, answer: approvalAnswerSchema, review: reviewChoiceSchema.optional() })
    .strict(),
  'tool:content': z.object({ call_id: callId }).strict(),
  'tool:preview': z.object({ call_id: callId }).strict(),
  'tool:keep-preview': z.object({ call_id: callId }).strict(),
  'session:list': none,
  'session:open': z.object({ id: sessionId }).strict(),
  'session:page': z.object({ id: sessionId, before: z.number().int().positive() }).strict(),
  'session:new': none,
  'session:new-as': z.object({ agent: z.string().min(1).max(256) }).strict(),
  'agents:list': none,
  'session:delete': z.object({ id: sessionId }).strict(),
  'session:export': z.object({ id: sessionId, format: sessionExportFormatSchema }).strict(),
  'session:compact': z.object({ focus: z.string().max(10_000).optional() }).strict(),
  'session:search': z.object({ query: z.string().max(1024) }).strict(),
  'session:rename': z.object({ id: sessionId, title: z.string().max(1024) }).strict(),
  'session:grants': none,
  'process:list': none,
  'process:output': z.object({ id: processId }).strict(),
  'process:stop': z.object({ id: processId }).strict(),
  'process:keep': z.object({ call_id: callId }).strict(),
  'agent:transcript': z.union([
    z.object({ parent: sessionId, session: sessionId }).strict(),
    z.object({ parent: sessionId, call_id: callId }).strict(),
  ]),
  'session:revoke': z.object({ rule: z.string().min(1).max(4096) }).strict(),
  'notify:show': z
    .object({ title: z.string().max(256), body: z.string().max(1024), tag: z.string().max(256), urgent: z.boolean() })
    .strict(),
  'settings:get': none,
  'settings:set-key': z
    .object({ provider: providerIdSchema, key: z.string().trim().min(1).max(4096).nullable() })
    .strict(),
  'link:open': z.object({ url: z.string().min(1).max(2048) }).strict(),
  'rewind:preview': rewindRequestSchema,
  'rewind:apply': rewindApplySchema,
  'changes:turn': turnChangesRequestSchema,
  'changes:revert': changesRevertRequestSchema,
  'composer:commands': none,
  'history:list': none,
  'history:add': z.object({ text: z.string().min(1).max(1_000_000) }).strict(),
  'history:forget': z.object({ text: z.string().min(1).max(1_000_000) }).strict(),
  'history:import': z.object({ prompts: z.array(z.string().max(HISTORY_PROMPT_CHARS)).max(HISTORY_LIMIT) }).strict(),
  'composer:files': z.object({ query: z.string().max(1024) }).strict(),
  'models:server': z.object({ base_url: z.url({ protocol: /^https?$/ }).max(2048) }).strict(),
  'composer:attach-image': z
    .object({
      media_type: z.enum(IMAGE_MEDIA_TYPES),
      // Base64 of at most MAX_IMAGE_BYTES (4 characters per 3 bytes); main checks the decoded size again.
      data: z
        .string()
        .min(1)
        .max(Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 4, 'the image is over the size limit'),
    })
    .strict(),
  'composer:image': z.object({ sha256 }).strict(),
  'tool:blob': z.object({ sha256: blobSha256 }).strict(),
  'mcp:resource': z.object({ server: z.string().min(1).max(256), uri: z.string().min(1).max(8192) }).strict(),
  'file:read': fileReadRequestSchema,
  'file:exists': filesExistRequestSchema,
  'file:open': fileOpenRequestSchema,
  'mcp:servers': none,
  'mcp:change': mcpChangeSchema,
  'mcp:elicitations': none,
  'mcp:resources': z.object({ query: z.string().max(1024) }).strict(),
  'mcp:prompt': z
    .object({
      server: z.string().min(1).max(64),
      name: z.string().min(1).max(256),
      arguments: z.record(z.string().max(256), z.string().max(65_536)),
    })
    .strict(),
  'mcp:elicit-answer': elicitAnswerSchema,
  'hooks:list': none,
  'hooks:approve': z
    .object({
      ids: z
        .array(z.string().regex(/^[0-9a-f]{24}$/))
        .min(1)
        .max(500),
    })
    .strict(),
};
