import type { ToolCallView, TranscriptItem } from '../store/transcript-types.ts';

// Consecutive read-only calls of one turn (reads, listings, searches), with nothing said between
// them, show as one compact card ("Read 3 files, searched 1 pattern") that opens to their own cards.
// A call that is running or was asked about stays a card of its own: what is happening now, and
// what the person answered, are never folded away.

export type TranscriptRow = TranscriptItem | { kind: 'group'; id: string; ids: string[] };

type ReadOnlyKind = 'read' | 'list' | 'search';

/** The read-only tools, by name, and what each adds to the group's summary. */
const READ_ONLY: Readonly<Record<string, ReadOnlyKind>> = {
  read_file: 'read',
  list_dir: 'list',
  search_files: 'search',
};

function groupable(call: ToolCallView | undefined): call is ToolCallView {
  return (
    call !== undefined && READ_ONLY[call.name] !== undefined && call.state !== 'running' && call.approvals.length === 0
  );
}

/** The transcript's rows with each run of two or more groupable calls of one turn as one group. */
export function groupReadOnly(order: readonly TranscriptItem[], calls: Record<string, ToolCallView>): TranscriptRow[] {
  const rows: TranscriptRow[] = [];
  let run: ToolCallView[] = [];
  const close = () => {
    if (run.length >= 2) rows.push({ kind: 'group', id: run[0]!.call_id, ids: run.map((call) => call.call_id) });
    else for (const call of run) rows.push({ kind: 'call', id: call.call_id });
    run = [];
  };
  for (const item of order) {
    const call = item.kind === 'call' ? calls[item.id] : undefined;
    if (groupable(call) && (run.length === 0 || run[0]!.turn_id === call.turn_id)) {
      run.push(call);
      continue;
    }
    close();
    if (groupable(call)) run.push(call);
    else rows.push(item);
  }
  close();
  return rows;
}

/** Whether two row lists show the same rows: then the list keeps the earlier one and draws nothing again. */
export function sameRows(a: readonly TranscriptRow[], b: readonly TranscriptRow[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((row, index) => {
    const other = b[index]!;
    if (row.kind !== other.kind || row.id !== other.id) return false;
    return row.kind !== 'group' || (other.kind === 'group' && row.ids.join('\n') === other.ids.join('\n'));
  });
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "Read 3 files, listed 1 folder, searched 2 patterns" (and how many failed). */
export function groupSummary(calls: readonly ToolCallView[]): string {
  // Two pages of one file are one file read.
  const count = (kind: ReadOnlyKind) =>
    new Set(
      calls
        .filter((call) => READ_ONLY[call.name] === kind)
        .map((call) => (kind === 'read' && call.description?.path) || call.call_id),
    ).size;
  const parts = [
    count('read') > 0 ? `read ${plural(count('read'), 'file', 'files')}` : '',
    count('list') > 0 ? `listed ${plural(count('list'), 'folder', 'folders')}` : '',
    count('search') > 0 ? `searched ${plural(count('search'), 'pattern', 'patterns')}` : '',
  ].filter(Boolean);
  const failed = calls.filter((call) => call.state !== 'done').length;
  const text = parts.join(', ') + (failed > 0 ? ` (${failed} failed)` : '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
