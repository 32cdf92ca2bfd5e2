// A session goes to the panel a page at a time, the newest first: where that page starts is cut
// the same way whether every event was kept (SessionPages) or only the last ones (a resume).

/**
 * Where the newest page starts: the longest run of events at the end whose bytes fit `budget`
 * (`bytesOf(index)`), and at least the last event, however large.
 */
export function newestPageStart(count: number, bytesOf: (index: number) => number, budget: number): number {
  let size = 0;
  let start = count;
  while (start > 0) {
    const bytes = bytesOf(start - 1);
    if (size + bytes > budget && start < count) break;
    size += bytes;
    start -= 1;
  }
  return start;
}
