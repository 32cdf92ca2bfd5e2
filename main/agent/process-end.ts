// What a process does as it ends, so that nothing written is lost and nothing keeps it alive: the
// lines other programs appended to files it just replaced carried over, its pooled SSH connections
// closed. (What it started that runs outside it is started-processes.ts's.)

export { finishLateAppends } from '../tools/files/late-appends.ts';

/** Pooled SSH connections would keep a one-shot command alive until they idle out. Loads the pool only now. */
export async function closeSshConnections(): Promise<void> {
  await (await import('../tools/ssh/open-pools.ts')).closeSshConnections();
}
