import type { EchoShape } from '../../protocol/echo.ts';
import type { StatusEvent } from '../../protocol/events.ts';

// Telling an event written before echoes carried a `kind` (format 1) from today's, without the
// tools that upgrade it (upgrade.ts): a reader thread tells them apart too, and loads no tool.

/** Whether an event was written before echoes had kinds, so upgradeEvent has work to do. */
export function isFormat1Event(event: StatusEvent): boolean {
  if (event.type === 'tool_started') return event.echo_kind === undefined && event.description === undefined;
  if (event.type === 'tool_completed') return !hasKind(event.result);
  if (event.type === 'tool_code_dispatch') return !hasKind(event.echo);
  return false;
}

export function hasKind(value: unknown): value is EchoShape {
  return isObject(value) && typeof value['kind'] === 'string';
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
