import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCodeFixture, type RunCodeFixture } from '../../../test/run-code-fixture.ts';
import { ALLOW_ALL, type ApprovalQuestion, type ApprovalReply, type Approver } from '../permission-gate.ts';

// A write a Code Mode program makes is reviewed like a card's own: its question (shown in the
// program's card) carries the hunks, and the program gets the result naming what was written.

let fixture: RunCodeFixture | undefined;

afterEach(async () => {
  await fixture?.dispose();
  fixture = undefined;
});

describe('review of a write made inside run_code', () => {
  it('asks with the hunks under the program’s call, and writes the person’s text', async () => {
    const asked: ApprovalQuestion[] = [];
    const approver: Approver = {
      reviews: true,
      ask: async (question): Promise<ApprovalReply> => {
        asked.push(question);
        return { answer: 'once', review: { hunks: [{ accept: true, new_text: 'by hand' }], note: 'mine' } };
      },
    };
    fixture = await runCodeFixture({ rules: { ...ALLOW_ALL, write: 'ask' }, approver });
    const code =
      "const r = await tools.write_file({ path: 'n.txt', content: 'proposed\\n' }); return 'applied ' + r.review.applied.length + ' of ' + r.review.hunks;";
    const outcome = await fixture.registry.call({ callId: 'p1', name: 'run_code', args: { code } });
    expect(outcome.isError).toBe(false);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.parentCallId).toBe('p1');
    expect(asked[0]?.request.review?.hunks[0]?.lines).toEqual(['+proposed']);
    expect(await readFile(path.join(fixture.workspace, 'n.txt'), 'utf8')).toBe('by hand\n');
    const nested = fixture.sink.ofType('tool_code_dispatch').find((event) => event.parent_call_id === 'p1');
    expect(nested?.content).toContain("applied with the person's own text");
    expect(nested?.content).toContain('Note from the person: mine');
    expect(outcome.content).toContain('applied 1 of 1');
  });
});
