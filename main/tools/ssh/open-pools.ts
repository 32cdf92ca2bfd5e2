// Every SSH pool in the process, so a one-shot command (the CLI) can close them all when it is done:
// an open connection keeps its keepalive timer, and with it the process, alive until it idles out.
// Kept apart from ssh-pool.ts so that closing them loads no SSH code in a process that used none.

interface ClosablePool {
  closeAll(): Promise<void>;
}

const livePools = new Set<WeakRef<ClosablePool>>();

/** Called by each pool as it is made. */
export function trackPool(pool: ClosablePool): void {
  livePools.add(new WeakRef(pool));
}

/** Closes every pooled SSH connection in this process. */
export async function closeSshConnections(): Promise<void> {
  const pools: ClosablePool[] = [];
  for (const ref of livePools) {
    const pool = ref.deref();
    if (pool) pools.push(pool);
    else livePools.delete(ref);
  }
  await Promise.all(pools.map((pool) => pool.closeAll()));
}
