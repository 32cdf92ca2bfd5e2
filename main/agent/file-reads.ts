// read_file for the panel's own reads of workspace files (file links, a diff's folded lines): the
// same confinement and page limits as the model's reads, run directly, with no model, no
// permission question and nothing in a session log. Kept apart from workspace-files.ts so that a
// command which only names a workspace does not load the tool.

export { readFileTool } from '../tools/files/read-file.ts';
