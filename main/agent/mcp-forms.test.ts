import { afterEach, describe, expect, it } from 'vitest';
import type { ElicitationView } from '../../protocol/elicitation.ts';
import { FIXTURE } from '../../test/mcp-servers.ts';
import { McpConnection } from '../tools/mcp/mcp-connection.ts';
import { WaitingForms } from './mcp-forms.ts';

// A real MCP server (the fixture, over stdio) asks for a form during its tool call: the panel's
// list shows it with its fields, an answer that breaks the schema is refused and the form keeps
// waiting, and what the person answers (accept with content, decline, cancel) reaches the server.

let connection: McpConnection | undefined;

afterEach(async () => {
  await connection?.close();
  connection = undefined;
});

async function withForms() {
  const announced: ElicitationView[][] = [];
  const forms = new WaitingForms((views) => announced.push(views));
  connection = new McpConnection(
    {
      name: 'fixture',
      origin: 'user',
      file: 'mcp.json',
      transport: { command: process.execPath, args: [FIXTURE], env: {} },
      disabled: false,
    },
    { elicit: forms.ask },
  );
  await connection.start();
  const call = connection.callTool(
    'asks-for-release',
    {},
    { signal: AbortSignal.timeout(20_000), onprogress: () => undefined },
  );
  const text = call.then((result) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));
  await expect.poll(() => forms.list().length).toBe(1);
  return { forms, announced, text, form: forms.list()[0]! };
}

describe('forms MCP servers ask for in the panel', () => {
  it('shows the form with its fields, refuses an answer that breaks it, and sends an accepted one back', async () => {
    const { forms, announced, text, form } = await withForms();
    expect(form).toMatchObject({ server: 'fixture', message: 'Which release should be cut?' });
    expect(form.fields).toEqual([
      {
        name: 'version',
        label: 'Version',
        description: 'Like 2.4.0',
        required: true,
        kind: 'text',
        min_length: 1,
        max_length: 20,
      },
      {
        name: 'count',
        label: 'Build count',
        description: '',
        required: false,
        kind: 'number',
        integer: true,
        minimum: 1,
        maximum: 10,
      },
      { name: 'notify', label: 'Tell the team', description: '', required: false, kind: 'boolean', default: true },
      {
        name: 'channel',
        label: 'Channel',
        description: '',
        required: true,
        kind: 'choice',
        options: [
          { value: 'stable', label: 'Stable' },
          { value: 'beta', label: 'Beta' },
        ],
      },
    ]);
    expect(announced.at(-1)).toEqual([form]);

    expect(
      forms.answer({ id: form.id, action: 'accept', content: { version: '', count: 11, channel: 'nightly' } }),
    ).toEqual({
      ok: false,
      error: 'Version is required. Build count must be at most 10. Channel must be one of: Stable, Beta.',
    });
    expect(forms.list()).toHaveLength(1);

    expect(
      forms.answer({
        id: form.id,
        action: 'accept',
        content: { version: '2.4.0', count: 2, notify: false, channel: 'beta' },
      }),
    ).toEqual({ ok: true, value: undefined });
    expect(await text).toBe('accept {"version":"2.4.0","count":2,"notify":false,"channel":"beta"}');
    expect(forms.list()).toEqual([]);
    expect(announced.at(-1)).toEqual([]);
    expect(forms.answer({ id: form.id, action: 'decline' })).toMatchObject({ ok: false });
  });

  it('sends a decline and a cancel back as they are', async () => {
    const first = await withForms();
    first.forms.answer({ id: first.form.id, action: 'decline' });
    expect(await first.text).toBe('decline {}');
    await connection?.close();
    const second = await withForms();
    second.forms.answer({ id: second.form.id, action: 'cancel' });
    expect(await second.text).toBe('cancel {}');
  });

  it('takes a form away and cancels it when the call it belongs to is stopped', async () => {
    const { forms, text } = await withForms();
    void text.catch(() => undefined);
    await connection!.close();
    await expect.poll(() => forms.list()).toEqual([]);
  });
});
