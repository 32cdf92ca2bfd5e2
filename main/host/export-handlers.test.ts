import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderId, Result } from '../../protocol/api.ts';
import { exportHandlers } from './export-handlers.ts';
import type { KeyStore } from './key-store.ts';

// The panel's `session:export`: a session of the sessions folder as the file the page saves, with
// the keys the host keeps removed as well as the environment's secrets.

const STORED = 'sk-openai-kept-by-the-app-0123';
const ID = '20250301-101500-a1b2c3';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'aether-export-panel-'));
  const lines = [
    { kind: 'header', version: 1, id: ID, workspace: '/w', created_at: '2025-03-01T10:15:00.000Z', model: 'demo' },
    {
      kind: 'event',
      event: {
        type: 'user_message',
        turn_id: 't1',
        text: `Use ${STORED} for the call`,
        seq: 1,
        at: '2025-03-01T10:15:01.000Z',
      },
    },
    {
      kind: 'event',
      event: {
        type: 'assistant_message',
        turn_id: 't1',
        text: 'Done.',
        tool_calls: [],
        seq: 2,
        at: '2025-03-01T10:15:02.000Z',
      },
    },
  ];
  await writeFile(path.join(root, `${ID}.jsonl`), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const keys: KeyStore = {
  storesKeys: true,
  get: async (provider: ProviderId) => (provider === 'openai' ? STORED : undefined),
  set: async (): Promise<Result<void>> => ({ ok: false, error: 'not in this test' }),
};

describe('session:export', () => {
  it('answers the Markdown file, named after the session, without the keys the host keeps', async () => {
    const exported = await exportHandlers({ sessionsRoot: root, keys })['session:export']({
      id: ID,
      format: 'markdown',
    });
    expect(exported.ok).toBe(true);
    if (!exported.ok) return;
    expect(exported.value).toMatchObject({ name: 'Use-redacted-openai-key-for-the-call.md', mime: 'text/markdown' });
    expect(exported.value.text).toContain('Use [redacted: openai key] for the call');
    expect(exported.value.text).not.toContain(STORED);
  });

  it('says which session it could not read', async () => {
    const missing = await exportHandlers({ sessionsRoot: root, keys })['session:export']({
      id: '20250301-000000-ffffff',
      format: 'html',
    });
    expect(missing).toEqual({ ok: false, error: expect.stringContaining('20250301-000000-ffffff') });
  });
});
