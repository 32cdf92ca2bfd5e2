import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// Every ACP frame checked against the SDK's own JSON schema (schema/v1/schema.json, draft 2020-12):
// the frame as a whole against the schema's Agent or Client message, its params against the
// method's request or notification, a result against the response of the method it answers.
// Ajv 8 (the draft 2020-12 validator) is the one the MCP SDK depends on.

const require = createRequire(import.meta.url);
const ajvRequire = createRequire(require.resolve('@modelcontextprotocol/sdk/package.json'));
const schemaFile = require.resolve('@agentclientprotocol/sdk/schema/v1/schema.json');

interface Validator {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}
interface Ajv2020 {
  compile(schema: unknown): Validator;
}
const Ajv = (ajvRequire('ajv/dist/2020.js') as { default: new (options: object) => Ajv2020 }).default;

export type Direction = 'agent' | 'client';
export interface Frame {
  from: Direction;
  frame: Record<string, unknown>;
}

/** The methods each side handles, with the schema names of their params and results. */
const AGENT_METHODS: Record<string, [string, string | null]> = {
  initialize: ['InitializeRequest', 'InitializeResponse'],
  'session/new': ['NewSessionRequest', 'NewSessionResponse'],
  'session/load': ['LoadSessionRequest', 'LoadSessionResponse'],
  'session/list': ['ListSessionsRequest', 'ListSessionsResponse'],
  'session/prompt': ['PromptRequest', 'PromptResponse'],
  'session/set_mode': ['SetSessionModeRequest', 'SetSessionModeResponse'],
  'session/close': ['CloseSessionRequest', 'CloseSessionResponse'],
  'session/cancel': ['CancelNotification', null],
};
const CLIENT_METHODS: Record<string, [string, string | null]> = {
  'session/update': ['SessionNotification', null],
  'session/request_permission': ['RequestPermissionRequest', 'RequestPermissionResponse'],
  'fs/read_text_file': ['ReadTextFileRequest', 'ReadTextFileResponse'],
  'fs/write_text_file': ['WriteTextFileRequest', 'WriteTextFileResponse'],
  'terminal/create': ['CreateTerminalRequest', 'CreateTerminalResponse'],
  'terminal/output': ['TerminalOutputRequest', 'TerminalOutputResponse'],
  'terminal/wait_for_exit': ['WaitForTerminalExitRequest', 'WaitForTerminalExitResponse'],
  'terminal/kill': ['KillTerminalRequest', 'KillTerminalResponse'],
  'terminal/release': ['ReleaseTerminalRequest', 'ReleaseTerminalResponse'],
};

export class AcpSchema {
  private readonly message: Record<Direction, Validator>;
  private readonly defs = new Map<string, Validator>();
  private readonly ajv: Ajv2020;
  private readonly schema: { anyOf: unknown[]; $defs: Record<string, unknown> };

  constructor() {
    this.schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as typeof this.schema;
    this.ajv = new Ajv({ strict: false, allErrors: true, logger: false });
    const [agent, client] = this.schema.anyOf;
    this.message = {
      agent: this.ajv.compile({ ...(agent as object), $defs: this.schema.$defs }),
      client: this.ajv.compile({ ...(client as object), $defs: this.schema.$defs }),
    };
  }

  /** The problems of one frame sent by `from`, answering a request of `answering` when it is a response. */
  problems(from: Direction, frame: Record<string, unknown>, answering?: string): string[] {
    const found: string[] = [];
    const check = (validate: Validator, data: unknown, what: string): void => {
      if (!validate(data))
        found.push(
          `${from} ${what}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${JSON.stringify(frame).slice(0, 300)}`,
        );
    };
    check(this.message[from], frame, 'message');
    const method = typeof frame.method === 'string' ? frame.method : answering;
    const table = (from === 'client') === (typeof frame.method === 'string') ? AGENT_METHODS : CLIENT_METHODS;
    const names = method ? table[method] : undefined;
    if (typeof frame.method === 'string' && names) check(this.def(names[0]), frame.params, `${method} params`);
    if ('result' in frame && names?.[1]) check(this.def(names[1]), frame.result, `${method} result`);
    if (method && !names && !method.startsWith('$/'))
      found.push(`${from} sent ${method}, a method this check does not know`);
    return found;
  }

  private def(name: string): Validator {
    let validate = this.defs.get(name);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `#/$defs/${name}`, $defs: this.schema.$defs });
      this.defs.set(name, validate);
    }
    return validate;
  }
}

/**
 * Checks a whole conversation, frames in order. Responses are matched to their requests by id
 * in the other direction, so each result is checked against its method's response.
 */
export function conversationProblems(frames: readonly Frame[], schema = new AcpSchema()): string[] {
  const asked: Record<Direction, Map<unknown, string>> = { agent: new Map(), client: new Map() };
  const problems: string[] = [];
  for (const { from, frame } of frames) {
    let answering: string | undefined;
    if (typeof frame.method === 'string' && 'id' in frame) asked[from].set(frame.id, frame.method);
    else if (!('method' in frame)) {
      const other: Direction = from === 'agent' ? 'client' : 'agent';
      answering = asked[other].get(frame.id);
      asked[other].delete(frame.id);
    }
    problems.push(...schema.problems(from, frame, answering));
  }
  return problems;
}

/** acpx's `--format json` lines (every frame both ways), each with its direction worked out. */
export function acpxFrames(output: string): Frame[] {
  const frames: Frame[] = [];
  // The method of each request still unanswered, by who asked and its id.
  const outstanding: Record<Direction, Map<unknown, string>> = { agent: new Map(), client: new Map() };
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const frame = JSON.parse(line) as Record<string, unknown>;
    if (frame.jsonrpc !== '2.0') continue;
    let from: Direction;
    if (typeof frame.method === 'string') {
      from = frame.method in AGENT_METHODS || frame.method === '$/cancel_request' ? 'client' : 'agent';
      if ('id' in frame) outstanding[from].set(frame.id, frame.method);
    } else {
      // A response comes from the side that did not ask; when both wait on the id, the shape tells.
      const agentAsked = outstanding.agent.get(frame.id);
      const clientAsked = outstanding.client.has(frame.id);
      from = agentAsked && (!clientAsked || answersClientMethod(agentAsked, frame.result)) ? 'client' : 'agent';
      outstanding[from === 'agent' ? 'client' : 'agent'].delete(frame.id);
    }
    frames.push({ from, frame });
  }
  return frames;
}

/** Whether a result has the shape of the answer to `method`, a request the agent made of the client. */
function answersClientMethod(method: string, result: unknown): boolean {
  if (typeof result !== 'object' || result === null) return false;
  if (method === 'session/request_permission') return 'outcome' in result;
  if (method === 'fs/read_text_file') return 'content' in result;
  // An agent method's answer (session/prompt's stopReason, say) always has a field; this one has none.
  if (method === 'terminal/create') return 'terminalId' in result;
  if (method === 'terminal/output') return 'output' in result && 'truncated' in result;
  if (method === 'terminal/wait_for_exit')
    return !('stopReason' in result) && ('exitCode' in result || 'signal' in result);
  const empty = Object.keys(result).every((key) => key === '_meta');
  if (method === 'fs/write_text_file' || method === 'terminal/kill' || method === 'terminal/release') return empty;
  return false;
}
