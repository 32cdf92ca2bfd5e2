import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** A real temp folder holding a workspace and session folders, for tests that run tools or the CLI. */
export interface TempWorkspace {
  /** Holds the others; remove it to clean up. */
  root: string;
  /** The workspace root, real path. */
  workspace: string;
  /** One session's folder (spill files). */
  sessionDir: string;
  /** A sessions root, as `--sessions` names it: one folder per session inside. */
  sessionsRoot: string;
}

export async function makeTempWorkspace(prefix: string): Promise<TempWorkspace> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  const folders = {
    workspace: path.join(root, 'ws'),
    sessionDir: path.join(root, 'session'),
    sessionsRoot: path.join(root, 'sessions'),
  };
  for (const folder of Object.values(folders)) await mkdir(folder);
  return { root, ...folders };
}

/**
 * Fresh folders for every test of the calling suite, removed after it: the returned object's
 * fields are replaced before each test, so read them inside the test, never at load time.
 */
export function useTempWorkspace(prefix: string): TempWorkspace {
  const current: TempWorkspace = { root: '', workspace: '', sessionDir: '', sessionsRoot: '' };
  beforeEach(async () => {
    Object.assign(current, await makeTempWorkspace(prefix));
  });
  afterEach(async () => {
    if (current.root) await rm(current.root, { recursive: true, force: true });
  });
  return current;
}
