import { realWorkspaceRoot } from '../tools/workspace.ts';

// The workspace's files as the hosts reach them outside a session: the root of a folder a person
// named, a path confined to it as the tools confine theirs (file links, the editor), and the walk
// list_dir makes (the composer's @ index). The panel's own reads of a file are file-reads.ts's.

export { walk } from '../tools/files/walk.ts';
export { confinePath } from '../tools/workspace.ts';

/** The real path of the workspace a person named; throws a message they can act on when it is no folder. */
export function workspaceRoot(folder: string): Promise<string> {
  return realWorkspaceRoot(folder);
}
