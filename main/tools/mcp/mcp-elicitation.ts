import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

// A server's request for input (MCP elicitation, form mode): the form it asks for, answered by
// whoever the host puts behind it. Without anyone to ask, a form whose every required field has a
// default can be sent with its defaults (what a person would see filled in), or declined.

/** Answers one form request of the server named `server`. */
export type ElicitationHandler = (server: string, request: ElicitRequestFormParams) => Promise<ElicitResult>;

type FormProperty = ElicitRequestFormParams['requestedSchema']['properties'][string];

/** The form's defaults, or null when a required field has none. */
export function formDefaults(
  request: ElicitRequestFormParams,
): Record<string, string | number | boolean | string[]> | null {
  const { properties, required = [] } = request.requestedSchema;
  const content: Record<string, string | number | boolean | string[]> = {};
  for (const [name, property] of Object.entries(properties)) {
    const value = defaultOf(property);
    if (value !== undefined) content[name] = value;
  }
  return required.every((name) => name in content) ? content : null;
}

function defaultOf(property: FormProperty): string | number | boolean | string[] | undefined {
  return 'default' in property ? (property.default as string | number | boolean | string[] | undefined) : undefined;
}

/** Sends the defaults where they fill the form, else declines: for a run nobody can answer. */
export const acceptDefaults: ElicitationHandler = async (_server, request) => {
  const content = formDefaults(request);
  return content === null ? { action: 'decline' } : { action: 'accept', content };
};

/** Declines every form: nobody is there to fill one in. */
export const declineAll: ElicitationHandler = async () => ({ action: 'decline' });
