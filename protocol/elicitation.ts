import { z } from 'zod';

// A form an MCP server asks the person to fill in during a tool call (MCP elicitation, form mode),
// as the panel shows it: the server's requested schema made into a list of fields, each a string,
// a number, a yes/no, one choice or several, with what it requires. The same check runs in the
// panel before Accept and in the app before the answer goes back to the server.

interface FieldBase {
  /** The property's name in the answer. */
  name: string;
  /** Its title, else its name. */
  label: string;
  description: string;
  required: boolean;
}

export type ElicitField =
  | (FieldBase & {
      kind: 'text';
      default?: string;
      min_length?: number;
      max_length?: number;
      format?: 'email' | 'uri' | 'date' | 'date-time';
    })
  | (FieldBase & { kind: 'number'; integer: boolean; default?: number; minimum?: number; maximum?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'choice'; options: ElicitOption[]; default?: string })
  | (FieldBase & {
      kind: 'choices';
      options: ElicitOption[];
      default?: string[];
      min_items?: number;
      max_items?: number;
    });

export interface ElicitOption {
  value: string;
  label: string;
}

/** One form waiting for the person. */
export interface ElicitationView {
  id: string;
  /** The MCP server that asks. */
  server: string;
  /** What it asks, in its words. */
  message: string;
  fields: ElicitField[];
}

export type ElicitValue = string | number | boolean | string[];
export type ElicitContent = Record<string, ElicitValue>;

export const ELICIT_ACTIONS = ['accept', 'decline', 'cancel'] as const;

export const elicitAnswerSchema = z
  .object({
    id: z.string().min(1).max(64),
    action: z.enum(ELICIT_ACTIONS),
    content: z
      .record(
        z.string().max(256),
        z.union([z.string().max(65_536), z.number(), z.boolean(), z.array(z.string().max(4096)).max(256)]),
      )
      .optional(),
  })
  .strict();
export type ElicitAnswer = z.infer<typeof elicitAnswerSchema>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with one field's value, in words; null when it is fine. An absent value is only wrong when required. */
export function elicitFieldProblem(field: ElicitField, value: ElicitValue | undefined): string | null {
  const blank = value === undefined || value === '' || (Array.isArray(value) && value.length === 0 && field.required);
  if (blank) return field.required ? `${field.label} is required.` : null;
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return `${field.label} must be text.`;
      if (field.min_length !== undefined && value.length < field.min_length)
        return `${field.label} needs at least ${field.min_length} characters.`;
      if (field.max_length !== undefined && value.length > field.max_length)
        return `${field.label} takes at most ${field.max_length} characters.`;
      if (field.format === 'email' && !EMAIL.test(value)) return `${field.label} must be an email address.`;
      if (field.format === 'uri' && !isUri(value)) return `${field.label} must be an address (a URI).`;
      if (field.format === 'date' && !DATE.test(value)) return `${field.label} must be a date (YYYY-MM-DD).`;
      if (field.format === 'date-time' && Number.isNaN(Date.parse(value)))
        return `${field.label} must be a date and time.`;
      return null;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${field.label} must be a number.`;
      if (field.integer && !Number.isInteger(value)) return `${field.label} must be a whole number.`;
      if (field.minimum !== undefined && value < field.minimum)
        return `${field.label} must be at least ${field.minimum}.`;
      if (field.maximum !== undefined && value > field.maximum)
        return `${field.label} must be at most ${field.maximum}.`;
      return null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? null : `${field.label} must be yes or no.`;
    case 'choice':
      return typeof value === 'string' && field.options.some((option) => option.value === value)
        ? null
        : `${field.label} must be one of: ${field.options.map((option) => option.label).join(', ')}.`;
    case 'choices': {
      if (!Array.isArray(value) || value.some((item) => !field.options.some((option) => option.value === item)))
        return `${field.label} must be chosen from: ${field.options.map((option) => option.label).join(', ')}.`;
      if (field.min_items !== undefined && value.length < field.min_items)
        return `${field.label}: choose at least ${field.min_items}.`;
      if (field.max_items !== undefined && value.length > field.max_items)
        return `${field.label}: choose at most ${field.max_items}.`;
      return null;
    }
  }
}

/** Each field's problem with the answer, by field name; empty when the answer may be sent. */
export function elicitProblems(fields: readonly ElicitField[], content: ElicitContent): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const problem = elicitFieldProblem(field, content[field.name]);
    if (problem) problems[field.name] = problem;
  }
  return problems;
}

function isUri(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\S+$/i.test(value);
}
