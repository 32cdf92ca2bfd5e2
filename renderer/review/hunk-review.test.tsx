// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalAnswer } from '../../protocol/events.ts';
import type { FileView } from '../../protocol/files.ts';
import type { ReviewChoice, WriteReview } from '../../protocol/review.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { ToolCard } from '../cards/ToolCard.tsx';

// A write's approval in review: every hunk shown, each accepted, rejected or edited by button or
// key, and the answer names the choice per hunk (never the file); every hunk rejected is a denial.

afterEach(() => {
  cleanup();
  usePanel.getState().clearTranscript();
});

const review: WriteReview = {
  path: 'a.txt',
  created: false,
  added: 2,
  removed: 2,
  hunks: [
    { index: 1, old_start: 1, old_lines: 3, new_start: 1, new_lines: 3, lines: [' one', '-two', '+TWO', ' three'] },
    { index: 2, old_start: 17, old_lines: 3, new_start: 17, new_lines: 3, lines: [' x', '-y', '+Y', ' z'] },
  ],
};

/** The file on disk while the change is asked about: the old side of every hunk, lines 1–30. */
const shownOld: Record<number, string> = { 1: 'one', 2: 'two', 3: 'three', 17: 'x', 18: 'y', 19: 'z' };
const onDisk = Array.from({ length: 30 }, (_, index) => shownOld[index + 1] ?? `old ${index + 1}`);

function pageOf(offset: number, limit: number): FileView {
  const slice = onDisk.slice(offset - 1, offset - 1 + limit);
  return {
    path: 'a.txt',
    range: { start: offset, end: offset + slice.length - 1 },
    total_lines: onDisk.length,
    content: slice.map((line) => `${line}\n`).join(''),
    truncated: offset - 1 + limit < onDisk.length,
    sha256: '0'.repeat(64),
  };
}

function renderReview() {
  const answers: { answer: ApprovalAnswer; review: ReviewChoice | undefined }[] = [];
  const reads: [string, number | undefined, number | undefined][] = [];
  const actions = new Proxy({} as PanelActions, {
    get:
      (_, name) =>
      async (...args: unknown[]) => {
        if (name === 'approve') answers.push({ answer: args[1] as ApprovalAnswer, review: args[2] as ReviewChoice });
        if (name === 'readFile') {
          const [path, offset, limit] = args as [string, number, number];
          reads.push([path, offset, limit]);
          return { ok: true, value: pageOf(offset, limit) };
        }
        return true;
      },
  });
  usePanel.getState().applyEvents([
    { type: 'tool_started', call_id: 'c1', name: 'patch_file', args: { path: 'a.txt', edits: [] }, echo_kind: 'patch' },
    {
      type: 'tool_approval_requested',
      call_id: 'c1',
      name: 'patch_file',
      request: { title: 'Patch a.txt', detail: 'Edit 1', scope: 'write', review },
    },
  ]);
  render(
    <ActionsContext.Provider value={actions}>
      <ToolCard callId="c1" />
    </ActionsContext.Provider>,
  );
  return { card: screen.getByTestId('hunk-review'), answers, reads };
}

describe('hunk-by-hunk review of a write', () => {
  it('shows every hunk with its lines and starts with all accepted', () => {
    const { card } = renderReview();
    const hunks = within(card).getAllByTestId('review-hunk');
    expect(hunks.map((hunk) => hunk.getAttribute('data-state'))).toEqual(['accepted', 'accepted']);
    expect(hunks[1]?.getAttribute('aria-label')).toBe('Hunk 2 of 2, line 18: accepted');
    expect(within(hunks[0]!).getByTestId('patch-diff').textContent).toContain('TWO');
    expect(within(card).getByTestId('approve-once').textContent).toBe('Write all 2 hunks');
  });

  it('folds only the lines between two hunks, and unfolds them from the file as it is before the write', async () => {
    const { card, reads } = renderReview();
    const hunks = within(card).getAllByTestId('review-hunk');
    // Hunk 1 covers lines 1–3, hunk 2 starts at 17: lines 4–16 lie between them.
    expect(within(hunks[0]!).queryAllByTestId('diff-fold')).toHaveLength(0);
    const between = within(hunks[1]!).getByText('⋯ 13 unchanged lines');
    await act(async () => fireEvent.click(between));
    expect(reads).toEqual([['a.txt', 3, 15]]);
    const context = [...hunks[1]!.querySelectorAll('[data-kind="context"] .diff-text')].map((line) => line.textContent);
    expect(context.slice(0, 13)).toEqual(onDisk.slice(3, 16));
    expect(hunks[1]!.textContent).not.toContain('The file has changed since');
    // Only the last hunk offers the rest of the file below it, read on the same side.
    await act(async () => fireEvent.click(within(hunks[1]!).getByText('⋯ the rest of the file')));
    expect(reads.at(-1)).toEqual(['a.txt', 19, 201]);
    expect(hunks[1]!.textContent).toContain('2020 old 20');
    expect(hunks[1]!.textContent).toContain('End of the file.');
  });

  it('sends the rejected hunk and the note when one hunk is rejected', () => {
    const { card, answers } = renderReview();
    fireEvent.click(within(card).getAllByTestId('review-hunk-reject')[0]!);
    fireEvent.change(within(card).getByTestId('review-note'), { target: { value: 'leave two alone' } });
    expect(within(card).getByTestId('approve-once').textContent).toBe('Write 1 of 2 hunks');
    fireEvent.click(within(card).getByTestId('approve-once'));
    expect(answers).toEqual([
      { answer: 'once', review: { hunks: [{ accept: false }, { accept: true }], note: 'leave two alone' } },
    ]);
  });

  it('answers from the keyboard: R rejects the focused hunk, A accepts it again, 1 writes', () => {
    const { card, answers } = renderReview();
    const second = within(card).getAllByTestId('review-hunk')[1]!;
    fireEvent.keyDown(second, { key: 'r' });
    expect(second.getAttribute('data-state')).toBe('rejected');
    fireEvent.keyDown(second, { key: 'a' });
    fireEvent.keyDown(second, { key: 'r' });
    // The question itself holds the focus when it arrives: 1 answers from there too.
    fireEvent.keyDown(screen.getByTestId('approval'), { key: '1' });
    expect(answers).toEqual([{ answer: 'once', review: { hunks: [{ accept: true }, { accept: false }] } }]);
  });

  it('sends the edited text of a hunk in place of its proposed lines', () => {
    const { card, answers } = renderReview();
    fireEvent.click(within(card).getAllByTestId('review-hunk-edit')[0]!);
    const box = within(card).getByTestId('review-hunk-text') as HTMLTextAreaElement;
    expect(box.value).toBe('TWO');
    fireEvent.change(box, { target: { value: 'Two, by hand' } });
    fireEvent.click(within(card).getByTestId('review-hunk-save'));
    const first = within(card).getAllByTestId('review-hunk')[0]!;
    expect(first.getAttribute('data-state')).toBe('edited');
    // The box closed and gave the focus back to its hunk.
    expect(document.activeElement).toBe(first);
    expect(within(first).getByTestId('patch-diff').textContent).toContain('Two, by hand');
    fireEvent.click(within(card).getByTestId('approve-once'));
    expect(answers[0]?.review).toEqual({ hunks: [{ accept: true, new_text: 'Two, by hand' }, { accept: true }] });
  });

  it('counts the proposed text given back unchanged as no edit', () => {
    const { card } = renderReview();
    fireEvent.keyDown(within(card).getAllByTestId('review-hunk')[1]!, { key: 'e' });
    fireEvent.click(within(card).getByTestId('review-hunk-save'));
    expect(within(card).getAllByTestId('review-hunk')[1]?.getAttribute('data-state')).toBe('accepted');
  });

  it('turns Reject all into a denial that still carries the note', () => {
    const { card, answers } = renderReview();
    fireEvent.click(within(card).getByTestId('review-reject-all'));
    fireEvent.change(within(card).getByTestId('review-note'), { target: { value: 'no' } });
    expect(within(card).getByTestId('approve-once').textContent).toBe('Reject the change');
    fireEvent.click(within(card).getByTestId('approve-once'));
    expect(answers).toEqual([
      { answer: 'deny', review: { hunks: [{ accept: false }, { accept: false }], note: 'no' } },
    ]);
  });

  it('takes no key typed in the note as an answer', () => {
    const { card, answers } = renderReview();
    fireEvent.keyDown(within(card).getByTestId('review-note'), { key: '1' });
    fireEvent.keyDown(within(card).getByTestId('review-note'), { key: 'r' });
    expect(answers).toEqual([]);
    expect(within(card).getAllByTestId('review-hunk')[0]?.getAttribute('data-state')).toBe('accepted');
  });

  it('sends no review when everything is accepted as proposed without a note', () => {
    const { card, answers } = renderReview();
    fireEvent.click(within(card).getByTestId('approve-once'));
    expect(answers).toEqual([{ answer: 'once', review: undefined }]);
  });
});

describe('a write whose every hunk was rejected, as replayed', () => {
  it("says so in one calm line naming the file, with the person's note", () => {
    const reason =
      'Denied by the user: every hunk of the change to a.txt was rejected (2 hunks: hunk 1 (line 2), hunk 2 (line 18)). Nothing was written. Note from the person: Not now.';
    usePanel.getState().applyEvents([
      {
        type: 'tool_started',
        call_id: 'c1',
        name: 'patch_file',
        args: { path: 'a.txt', edits: [] },
        echo_kind: 'patch',
      },
      {
        type: 'tool_approval_requested',
        call_id: 'c1',
        name: 'patch_file',
        request: { title: 'Patch a.txt', detail: 'Edit 1', scope: 'write', review },
      },
      { type: 'tool_approval_resolved', call_id: 'c1', answer: 'deny' },
      {
        type: 'tool_completed',
        call_id: 'c1',
        name: 'patch_file',
        execution_time: 5,
        is_error: true,
        result: { kind: 'text', text: reason },
      },
    ]);
    const noActions = new Proxy({} as PanelActions, { get: () => async () => undefined });
    render(
      <ActionsContext.Provider value={noActions}>
        <ToolCard callId="c1" />
      </ActionsContext.Provider>,
    );
    const card = screen.getByTestId('tool-card');
    // One calm line naming the file and the person's note; not the model's account of every hunk.
    expect(within(card).getByTestId('approval-answer').textContent).toBe(
      'You rejected the change to a.txt · Your note: Not now.',
    );
    expect(within(card).queryByTestId('card-error')).toBeNull();
    expect(card.textContent).not.toContain('hunk 1 (line 2)');
    expect(card.className).toContain('is-denied');
  });
});
