import type { ElicitRequestFormParams, ElicitResult, StringSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitField, ElicitOption } from '../../../protocol/elicitation.ts';

// A server's request for input (MCP elicitation, form mode): the form it asks for, answered by
// whoever the host puts behind it. Without anyone to ask, a form whose every required field has a
// default can be sent with its defaults (what a person would see filled in), or declined.

/** Answers one form request of the server named `server`; `signal` aborts when the server gives up on it. */
export type ElicitationHandler = (
  server: string,
  request: ElicitRequestFormParams,
  signal?: AbortSignal,
) => Promise<ElicitResult>;

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

/** The form's fields as the panel shows them, in the schema's order. */
export function elicitationFields(request: ElicitRequestFormParams): ElicitField[] {
  const { properties, required = [] } = request.requestedSchema;
  return Object.entries(properties).map(([name, property]): ElicitField => {
    const base = {
      name,
      label: property.title ?? name,
      description: property.description ?? '',
      required: required.includes(name),
    };
    if (property.type === 'boolean')
      return { ...base, kind: 'boolean', ...(property.default !== undefined ? { default: property.default } : {}) };
    if (property.type === 'number' || property.type === 'integer')
      return {
        ...base,
        kind: 'number',
        integer: property.type === 'integer',
        ...defined({ default: property.default, minimum: property.minimum, maximum: property.maximum }),
      };
    if (property.type === 'array') {
      const items = property.items;
      const options: ElicitOption[] =
        'anyOf' in items
          ? items.anyOf.map((option) => ({ value: option.const, label: option.title }))
          : items.enum.map((value) => ({ value, label: value }));
      return {
        ...base,
        kind: 'choices',
        options,
        ...defined({ default: property.default, min_items: property.minItems, max_items: property.maxItems }),
      };
    }
    if ('oneOf' in property)
      return {
        ...base,
        kind: 'choice',
        options: property.oneOf.map((option) => ({ value: option.const, label: option.title })),
        ...defined({ default: property.default }),
      };
    if ('enum' in property) {
      const names = 'enumNames' in property ? property.enumNames : undefined;
      return {
        ...base,
        kind: 'choice',
        options: property.enum.map((value, index) => ({ value, label: names?.[index] ?? value })),
        ...defined({ default: property.default }),
      };
    }
    const text = property as StringSchema;
    return {
      ...base,
      kind: 'text',
      ...defined({
        default: text.default,
        min_length: text.minLength,
        max_length: text.maxLength,
        format: text.format,
      }),
    };
  });
}

/** The entries whose value is set: optional fields stay absent rather than undefined. */
function defined<T extends Record<string, unknown>>(entries: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
