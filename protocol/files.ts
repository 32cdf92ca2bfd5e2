import { z } from 'zod';
import { READ_PAGE_LINES, type LineRange } from './tools.ts';

// The panel's own look at workspace files, without the model: a page of a file for the read card a
// file link opens (and for the unchanged lines a diff folds), which of some paths are files (so only
// those become links), and where a file link opens (the panel's viewer, or the person's editor).

/** At most this many paths are asked about at once. */
export const MAX_EXISTS_PATHS = 200;

const workspacePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((value) => !value.includes('\0'), 'a path never contains a NUL character');

export const fileReadRequestSchema = z
  .object({
    path: workspacePath,
    /** First line, 1-based. */
    offset: z.number().int().min(1).optional(),
    /** Lines at most (and never more than a read_file page). */
    limit: z.number().int().min(1).max(READ_PAGE_LINES).optional(),
  })
  .strict();
export type FileReadRequest = z.infer<typeof fileReadRequestSchema>;

/** A page of a file as it is now: its lines without numbers, like read_file's echo. */
export interface FileView {
  /** Workspace-relative, `/`-separated. */
  path: string;
  range: LineRange;
  total_lines: number;
  content: string;
  /** More lines follow the page. */
  truncated: boolean;
  /** Of the whole file. */
  sha256: string;
}

export const filesExistRequestSchema = z.object({ paths: z.array(workspacePath).max(MAX_EXISTS_PATHS) }).strict();

export const fileOpenRequestSchema = z
  .object({ path: workspacePath, line: z.number().int().min(1).optional() })
  .strict();
export type FileOpenRequest = z.infer<typeof fileOpenRequestSchema>;

/** Where a file link opens: the panel's read card, or the command the person chose (desktop app). */
export const OPEN_FILES_IN = ['viewer', 'editor'] as const;
export const openFilesInSchema = z.enum(OPEN_FILES_IN);
export type OpenFilesIn = z.infer<typeof openFilesInSchema>;

/** The editor command: a program and its arguments, `{path}` and `{line}` put in; never through a shell. */
export const editorCommandSchema = z
  .string()
  .trim()
  .min(1, 'name the command that opens a file, such as code -g {path}:{line}')
  .max(1024)
  .refine((value) => !/[\0\n\r]/.test(value), 'the command is one line');
