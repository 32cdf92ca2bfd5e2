// Memory bounds in tests: a real process's resident set, sampled while the work runs.

/** Runs `work`, sampling the resident set size every millisecond: the highest growth seen, in bytes. */
export async function peakGrowth<T>(work: () => Promise<T>): Promise<{ value: T; growth: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 1);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}
