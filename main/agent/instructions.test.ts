import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../protocol/events.ts';
import type { ChatMessage } from '../model/types.ts';
import { useTempWorkspace } from '../../test/temp-workspace.ts';
import { ProjectInstructions, type InstructionMessage } from './instructions.ts';

// Which instruction files reach the model, when, and in what form (context messages).

const temp = useTempWorkspace('aether-instructions-');

async function put(relative: string, text: string): Promise<void> {
  const file = path.join(temp.workspace, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** A turn's start as the loop runs it: what is sent joins the model context. */
async function turn(instructions: ProjectInstructions, context: ChatMessage[] = []): Promise<InstructionMessage[]> {
  const messages = await instructions.atTurnStart(context);
  context.push(...messages.map((message) => ({ role: 'user' as const, content: message.text })));
  return messages;
}

function asEvents(messages: InstructionMessage[]): StatusEvent[] {
  return messages.map((message) => ({ type: 'context_message', turn_id: 't1', ...message }));
}

describe('ProjectInstructions', () => {
  it('sends the root files in a fixed order, each wrapped in a document naming its source', async () => {
    await put('CLAUDE.md', 'Use tabs.\n');
    await put('AGENTS.md', 'Run npm test before you finish.\n');
    await put('.aethercodex/instructions.md', 'Answer in French.\n');
    const messages = await turn(new ProjectInstructions(temp.workspace));
    expect(messages.map((message) => [message.source, message.change])).toEqual([
      ['AGENTS.md', 'loaded'],
      ['CLAUDE.md', 'loaded'],
      ['.aethercodex/instructions.md', 'loaded'],
    ]);
    expect(messages[0]!.text).toBe(
      '<instructions source="AGENTS.md">\nRun npm test before you finish.\n</instructions>',
    );
  });

  it('never follows a link that leads out of the workspace', async () => {
    const secret = path.join(temp.root, 'id_secret');
    await writeFile(secret, 'PRIVATE KEY\n');
    await symlink(secret, path.join(temp.workspace, 'AGENTS.md'));
    await put('docs/real.md', 'Docs rules.\n');
    await symlink(path.join(temp.workspace, 'docs', 'real.md'), path.join(temp.workspace, 'CLAUDE.md'));
    const messages = await turn(new ProjectInstructions(temp.workspace));
    expect(messages.map((message) => message.source)).toEqual(['CLAUDE.md']);
    expect(messages[0]!.text).toContain('Docs rules.');
  });

  it('sends nothing for a workspace without instruction files, or with an empty one', async () => {
    await put('CLAUDE.md', '  \n');
    expect(await turn(new ProjectInstructions(temp.workspace))).toEqual([]);
  });

  it('sends a file once, again after an edit with a notice, and withdraws it once deleted', async () => {
    await put('AGENTS.md', 'Rule one.\n');
    const instructions = new ProjectInstructions(temp.workspace);
    const context: ChatMessage[] = [];
    expect(await turn(instructions, context)).toHaveLength(1);
    expect(await turn(instructions, context)).toEqual([]);

    await put('AGENTS.md', 'Rule two.\n');
    const [changed] = await turn(instructions, context);
    expect(changed).toMatchObject({ source: 'AGENTS.md', change: 'changed' });
    expect(changed!.text).toContain('status="changed"');
    expect(changed!.text).toContain('AGENTS.md was edited: this replaces its earlier instructions.');
    expect(changed!.text).toContain('Rule two.');
    expect(await turn(instructions, context)).toEqual([]);

    await rm(path.join(temp.workspace, 'AGENTS.md'));
    const [removed] = await turn(instructions, context);
    expect(removed).toMatchObject({ source: 'AGENTS.md', change: 'removed' });
    expect(removed!.text).toContain('no longer apply');
    expect(await turn(instructions, context)).toEqual([]);
  });

  it('cuts a file over the cap at a line end and says so, in the text and in the event', async () => {
    const line = 'Keep functions short and named after what they do.\n';
    await put('AGENTS.md', line.repeat(40));
    const [message] = await turn(new ProjectInstructions(temp.workspace, { limitBytes: 500 }));
    const bytes = Buffer.byteLength(line) * 40;
    expect(message!.truncated).toEqual({ bytes, limit: 500 });
    const body = message!.text.split('\n').slice(1, -2);
    expect(body.every((row) => row === line.trimEnd())).toBe(true);
    expect(body.join('\n').length).toBeLessThanOrEqual(500);
    expect(message!.text).toContain(`[Cut: AGENTS.md is ${bytes} bytes; only its first`);
    expect(message!.text).toContain('Read the rest with read_file');
  });

  it('sends a nested AGENTS.md once a call works in its folder or below, outer folders first', async () => {
    await put('packages/web/AGENTS.md', 'Web rules.\n');
    await put('packages/AGENTS.md', 'Package rules.\n');
    await put('packages/web/src/app.ts', 'x\n');
    await put('docs/AGENTS.md', 'Docs rules.\n');
    const instructions = new ProjectInstructions(temp.workspace);
    expect(await instructions.forCalls([{ args: { path: 'README.md' } }])).toEqual([]);

    const sent = await instructions.forCalls([{ args: { path: 'packages/web/src/app.ts' } }]);
    expect(sent.map((message) => message.source)).toEqual(['packages/AGENTS.md', 'packages/web/AGENTS.md']);
    expect(await instructions.forCalls([{ args: { cwd: 'packages/web' } }])).toEqual([]);

    const docs = await instructions.forCalls([{ args: { cwd: 'docs' } }, { args: { path: '../outside' } }]);
    expect(docs.map((message) => message.source)).toEqual(['docs/AGENTS.md']);
  });

  it('checks nested files already sent at the next turn, like the root ones', async () => {
    await put('lib/AGENTS.md', 'Lib rules.\n');
    const instructions = new ProjectInstructions(temp.workspace);
    const context: ChatMessage[] = [];
    const [nested] = await instructions.forCalls([{ args: { path: 'lib' } }]);
    context.push({ role: 'user', content: nested!.text });
    await put('lib/AGENTS.md', 'New lib rules.\n');
    expect(await turn(instructions, context)).toMatchObject([{ source: 'lib/AGENTS.md', change: 'changed' }]);
  });

  it('starts a resumed session from what its log says was sent: nothing again, only what changed since', async () => {
    await put('AGENTS.md', 'Rule one.\n');
    await put('lib/AGENTS.md', 'Lib rules.\n');
    const first = new ProjectInstructions(temp.workspace);
    const context: ChatMessage[] = [];
    const root = await turn(first, context);
    const nested = await first.forCalls([{ args: { path: 'lib' } }]);
    context.push({ role: 'user', content: nested[0]!.text });
    const history = asEvents([...root, ...nested]);

    expect(await turn(new ProjectInstructions(temp.workspace, { history }), context)).toEqual([]);
    await put('lib/AGENTS.md', 'Lib rules, edited while the session was closed.\n');
    const resumed = new ProjectInstructions(temp.workspace, { history });
    expect(await turn(resumed, [...context])).toMatchObject([{ source: 'lib/AGENTS.md', change: 'changed' }]);
  });

  it('sends a file again once a compaction has taken it out of the model context', async () => {
    await put('AGENTS.md', 'Rule one.\n');
    const instructions = new ProjectInstructions(temp.workspace);
    const context: ChatMessage[] = [];
    await turn(instructions, context);
    expect(await turn(instructions, context)).toEqual([]);
    const compacted: ChatMessage[] = [{ role: 'user', content: 'Summary of the conversation so far.' }];
    expect(await turn(instructions, compacted)).toMatchObject([{ source: 'AGENTS.md', change: 'loaded' }]);
    expect(await turn(instructions, compacted)).toEqual([]);
  });

  it('sends nothing again when the compaction kept the document inside its summary message', async () => {
    await put('AGENTS.md', 'Rule one.\n');
    const instructions = new ProjectInstructions(temp.workspace);
    const [sent] = await turn(instructions, []);
    const summary = `The conversation so far was compacted.\n\n<summary>\nWork.\n</summary>\n\n${sent!.text}`;
    expect(await turn(instructions, [{ role: 'user', content: summary }])).toEqual([]);
  });
});
