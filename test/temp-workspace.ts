import { mkdir, mkdtemp, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A real temp folder holding a workspace and a session folder, for tests that run tools. */
export interface TempWorkspace {
  /** Holds both; remove it to clean up. */
  root: string;
  /** The workspace root, real path. */
  workspace: string;
  sessionDir: string;
}

export async function makeTempWorkspace(prefix: string): Promise<TempWorkspace> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  const workspace = path.join(root, 'ws');
  const sessionDir = path.join(root, 'session');
  await mkdir(workspace);
  await mkdir(sessionDir);
  return { root, workspace, sessionDir };
}
