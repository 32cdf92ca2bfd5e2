import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WriteEcho, PatchEcho } from '../../../protocol/echo.ts';
import type { ReviewChoice, WriteReview } from '../../../protocol/review.ts';
import type { PatchFileSuccess, WriteFileResult } from '../../../protocol/tools.ts';
import { PANEL_REQUEST_SCHEMAS } from '../../../protocol/panel-schemas.ts';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import {
  DEFAULT_RULES,
  PermissionGate,
  type ApprovalQuestion,
  type ApprovalReply,
  type Approver,
} from '../permission-gate.ts';
import { defaultCallHooks } from '../default-call-hooks.ts';
import { ToolRegistry } from '../registry.ts';
import { patchFileTool } from './patch-file.ts';
import { REVIEW_MAX_LINES } from './reviewed-write.ts';
import { writeFileTool } from './write-file.ts';

// Review before a write lands: the approval carries every hunk of the proposed change, the answer
// names the hunks to write (and new text for edited ones), and main computes the file from the
// original and those hunks, refusing when the file changed since the hunks were shown.

/** Answers like a person in the panel: sees the hunks, then replies with `reply(review)`. */
class ReviewingApprover implements Approver {
  readonly reviews = true;
  seen: WriteReview | undefined;
  private readonly reply: (review: WriteReview) => Promise<ApprovalReply> | ApprovalReply;
  constructor(reply: (review: WriteReview) => Promise<ApprovalReply> | ApprovalReply) {
    this.reply = reply;
  }
  async ask(question: ApprovalQuestion): Promise<ApprovalReply> {
    this.seen = question.request.review;
    if (!this.seen) throw new Error('the question carried no review');
    return this.reply(this.seen);
  }
}

let root: string;
let workspace: string;
let sessionDir: string;
let calls = 0;

beforeEach(async () => {
  ({ root, workspace, sessionDir } = await makeTempWorkspace('aether-review-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function run(approver: Approver, name: string, args: unknown) {
  const recorder = new StatusRecorder();
  const gate = new PermissionGate(DEFAULT_RULES, approver);
  const registry = new ToolRegistry({ workspace, sessionDir, sink: recorder, gate, hooks: defaultCallHooks() });
  registry.register(writeFileTool(), patchFileTool());
  calls += 1;
  const callId = `call-${calls}`;
  const outcome = await registry.call({ callId, name, args });
  const echo = recorder.ofType('tool_completed').find((event) => event.call_id === callId)?.result;
  return { ...outcome, echo };
}

const lines = (count: number, from = 1): string =>
  Array.from({ length: count }, (_, index) => `line ${index + from}\n`).join('');

/** A file of 20 lines and a patch that changes line 2 and line 18: two hunks far apart. */
async function twoEditPatch() {
  await writeFile(path.join(workspace, 'a.txt'), lines(20));
  return {
    path: 'a.txt',
    edits: [
      { old_text: 'line 2\n', new_text: 'line two\n' },
      { old_text: 'line 18\n', new_text: 'line eighteen\nline 18.5\n' },
    ],
  };
}

const choose = (hunks: ReviewChoice['hunks'], note?: string): ApprovalReply => ({
  answer: 'once',
  review: { hunks, ...(note ? { note } : {}) },
});

describe('review of a patch before it is written', () => {
  it('shows every hunk with its context and line numbers', async () => {
    const approver = new ReviewingApprover(() => ({ answer: 'once' }));
    const outcome = await run(approver, 'patch_file', await twoEditPatch());
    expect(outcome.isError).toBe(false);
    expect(approver.seen).toEqual({
      path: 'a.txt',
      created: false,
      added: 3,
      removed: 2,
      hunks: [
        {
          index: 1,
          old_start: 1,
          old_lines: 5,
          new_start: 1,
          new_lines: 5,
          lines: [' line 1', '-line 2', '+line two', ' line 3', ' line 4', ' line 5'],
        },
        {
          index: 2,
          old_start: 15,
          old_lines: 6,
          new_start: 15,
          new_lines: 7,
          lines: [
            ' line 15',
            ' line 16',
            ' line 17',
            '-line 18',
            '+line eighteen',
            '+line 18.5',
            ' line 19',
            ' line 20',
          ],
        },
      ],
    });
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toContain('line two\n');
  });

  it('writes only the accepted hunk and tells the model which one was rejected, with the note', async () => {
    const approver = new ReviewingApprover(() =>
      choose([{ accept: false }, { accept: true }], 'Keep line 2 as it is.'),
    );
    const outcome = await run(approver, 'patch_file', await twoEditPatch());
    expect(outcome.isError).toBe(false);
    const expected = lines(17) + 'line eighteen\nline 18.5\n' + lines(2, 19);
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe(expected);
    const result = outcome.result as PatchFileSuccess;
    expect(result.review).toEqual({
      hunks: 2,
      applied: [{ hunk: 2, old_start: 18, old_end: 18, new_start: 18, new_end: 19 }],
      rejected: [{ hunk: 1, old_start: 2, old_end: 2 }],
      note: 'Keep line 2 as it is.',
    });
    expect(result.diff).not.toContain('line two');
    expect(outcome.content).toContain('1 of 2 hunks applied, 1 rejected');
    expect(outcome.content).toContain('- Hunk 1 (line 2 of the file before): rejected, not written');
    expect(outcome.content).toContain('- Hunk 2 (line 18 before): applied as proposed; now lines 18–19.');
    expect(outcome.content).toContain('Note from the person: Keep line 2 as it is.');
    expect((outcome.echo as PatchEcho).review?.rejected).toEqual([{ hunk: 1, old_start: 2, old_end: 2 }]);
  });

  it('writes an edited hunk with the person’s text and gives the model that text', async () => {
    const approver = new ReviewingApprover(() =>
      choose([{ accept: true, new_text: 'line 2 (kept, renamed by hand)' }, { accept: false }]),
    );
    const outcome = await run(approver, 'patch_file', await twoEditPatch());
    expect(outcome.isError).toBe(false);
    const expected = 'line 1\nline 2 (kept, renamed by hand)\n' + lines(18, 3);
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe(expected);
    expect(outcome.content).toContain(
      "- Hunk 1 (line 2 before): applied with the person's own text instead of the proposed one; now line 2:\n```\nline 2 (kept, renamed by hand)\n```",
    );
    expect(outcome.content).toContain('- Hunk 2 (line 18 of the file before): rejected');
  });

  it('keeps CRLF line endings in an edited hunk of a CRLF file', async () => {
    await writeFile(path.join(workspace, 'w.txt'), 'a\r\nb\r\nc\r\n');
    const approver = new ReviewingApprover(() => choose([{ accept: true, new_text: 'B1\nB2' }]));
    const outcome = await run(approver, 'patch_file', { path: 'w.txt', edits: [{ old_text: 'b', new_text: 'x' }] });
    expect(outcome.isError).toBe(false);
    expect(await readFile(path.join(workspace, 'w.txt'), 'utf8')).toBe('a\r\nB1\r\nB2\r\nc\r\n');
  });

  it('denies the call when every hunk is rejected, naming the hunks and the note, and writes nothing', async () => {
    const approver = new ReviewingApprover(() => choose([{ accept: false }, { accept: false }], 'Not now.'));
    const outcome = await run(approver, 'patch_file', await twoEditPatch());
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toBe(
      'Denied by the user: every hunk of the change to a.txt was rejected (2 hunks: hunk 1 (line 2), hunk 2 (line 18)). Nothing was written. Note from the person: Not now.',
    );
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe(lines(20));
  });

  it('refuses when the file changed on disk after the hunks were shown, and leaves it as it is', async () => {
    const approver = new ReviewingApprover(async () => {
      await writeFile(path.join(workspace, 'a.txt'), lines(21));
      return choose([{ accept: true }, { accept: false }]);
    });
    const outcome = await run(approver, 'patch_file', await twoEditPatch());
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(
      /^a\.txt changed on disk after the change was shown for review \(sha256 [0-9a-f]{64} then, [0-9a-f]{64} now\), so the reviewed hunks no longer fit it\. Nothing was written\./,
    );
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe(lines(21));
  });

  it('refuses an answer whose hunks do not match the change', async () => {
    const approver = new ReviewingApprover(() => choose([{ accept: true }]));
    const outcome = await run(approver, 'patch_file', await twoEditPatch());
    expect(outcome.content).toBe('The review answered 1 hunks, but the change to a.txt has 2. Nothing was written.');
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe(lines(20));
  });
});

describe('review of write_file before it is written', () => {
  it('creates a new file with the person’s text for its one hunk', async () => {
    const approver = new ReviewingApprover(() => choose([{ accept: true, new_text: 'hello\nworld' }]));
    const outcome = await run(approver, 'write_file', { path: 'new/n.txt', content: 'hi\n' });
    expect(approver.seen?.created).toBe(true);
    expect(approver.seen?.hunks).toHaveLength(1);
    expect(outcome.isError).toBe(false);
    expect(await readFile(path.join(workspace, 'new/n.txt'), 'utf8')).toBe('hello\nworld\n');
    const result = outcome.result as WriteFileResult;
    expect(result).toMatchObject({ created: true, bytes: 12 });
    expect((outcome.echo as WriteEcho).review?.applied[0]?.edited_text).toBe('hello\nworld');
  });

  it('overwrites only the accepted hunks of a whole-file write', async () => {
    const file = path.join(workspace, 'b.txt');
    await writeFile(file, lines(20));
    const { createHash } = await import('node:crypto');
    const sha = createHash('sha256').update(lines(20)).digest('hex');
    const content = lines(20).replace('line 1\n', 'LINE 1\n').replace('line 20\n', 'LINE 20\n');
    const approver = new ReviewingApprover(() => choose([{ accept: true }, { accept: false }]));
    const outcome = await run(approver, 'write_file', { path: 'b.txt', content, expected_sha256: sha });
    expect(outcome.isError).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('LINE 1\n' + lines(19, 2));
    expect(outcome.content).toContain('1 of 2 hunks applied, 1 rejected');
  });
});

/** An approver that can review hunks but allows each question whole, once; `asked` keeps the questions. */
function allowOnce(): { approver: Approver; asked: ApprovalQuestion[] } {
  const asked: ApprovalQuestion[] = [];
  const approver: Approver = {
    reviews: true,
    ask: async (question) => {
      asked.push(question);
      return 'once';
    },
  };
  return { approver, asked };
}

describe('a change too large to review', () => {
  it('is asked about whole, as before, and written whole when allowed', async () => {
    const { approver, asked } = allowOnce();
    const content = lines(REVIEW_MAX_LINES + 1);
    const outcome = await run(approver, 'write_file', { path: 'big.txt', content });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.request.review).toBeUndefined();
    expect(asked[0]?.request.detail).toMatch(/more characters\)$/);
    expect(outcome.isError).toBe(false);
    expect(await readFile(path.join(workspace, 'big.txt'), 'utf8')).toBe(content);
  });
});

describe('a write with no lines to choose from', () => {
  it('is asked about whole: an empty new file', async () => {
    const { approver, asked } = allowOnce();
    const outcome = await run(approver, 'write_file', { path: 'empty.txt', content: '' });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.request.review).toBeUndefined();
    expect(outcome.isError).toBe(false);
    expect(await readFile(path.join(workspace, 'empty.txt'), 'utf8')).toBe('');
  });
});

describe('the panel request that answers a review', () => {
  const schema = PANEL_REQUEST_SCHEMAS['tool:approve'];
  it('takes a choice per hunk, edited texts and a note', () => {
    const request = {
      call_id: 'c1',
      answer: 'once',
      review: { hunks: [{ accept: false }, { accept: true, new_text: 'x' }], note: 'why' },
    };
    expect(schema.safeParse(request).success).toBe(true);
  });

  it('refuses a whole file or unknown fields in place of the choices, and an over-long note', () => {
    const base = { call_id: 'c1', answer: 'once' };
    expect(schema.safeParse({ ...base, review: { hunks: [], content: 'the whole file' } }).success).toBe(false);
    expect(schema.safeParse({ ...base, review: { hunks: [{ accept: true, path: '/etc/passwd' }] } }).success).toBe(
      false,
    );
    expect(schema.safeParse({ ...base, review: { hunks: [], note: 'n'.repeat(4001) } }).success).toBe(false);
  });
});
