// Small measuring helpers for the benches: median wall time and a side-by-side line.

export interface Timing {
  medianMs: number;
  runs: number;
}

export async function time(runs: number, body: () => unknown): Promise<Timing> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    await body();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { medianMs: samples[Math.floor(samples.length / 2)] ?? 0, runs };
}

export function compare(label: string, ours: Timing, baseline: Timing, baselineLabel: string): string {
  const ratio = baseline.medianMs > 0 ? ours.medianMs / baseline.medianMs : Number.NaN;
  return `${label.padEnd(44)} ${fmt(ours.medianMs).padStart(10)}   ${baselineLabel}: ${fmt(baseline.medianMs).padStart(10)}   ratio ${ratio.toPrecision(3)}× (median of ${ours.runs})`;
}

export function fmt(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`;
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
