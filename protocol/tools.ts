// Structured results of the instrumenta. The model sees each tool's rendered text; the panel
// decodes these shapes (read_file and patch_file pass through the echo untouched; exec and ssh_exec
// echo an ExecEcho).

export interface LineRange {
  /** 1-based first line shown. */
  start: number;
  /** 1-based last line shown (inclusive); `start - 1` when the page is empty. */
  end: number;
}

export interface ReadFileResult {
  path: string;
  range: LineRange;
  total_lines: number;
  /** The page's text, without line numbers; a line over 2000 characters is cut as the model sees it, with a note of its length. */
  content: string;
  sha256: string;
  /** True when lines remain after `range.end`. */
  truncated: boolean;
}

export interface PatchFileSuccess {
  ok: true;
  path: string;
  added: number;
  removed: number;
  hunks: number;
  /** Unified diff of the change. */
  diff: string;
  sha256: string;
}

export interface PatchFileFailure {
  ok: false;
  error: string;
}

export type PatchFileResult = PatchFileSuccess | PatchFileFailure;

export interface WriteFileResult {
  path: string;
  created: boolean;
  bytes: number;
  sha256: string;
}

export interface DirEntry {
  /** Path relative to the listed folder, `/`-separated; folders end with `/`. */
  path: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  size?: number;
}

export interface ListDirResult {
  path: string;
  entries: DirEntry[];
  /** True when the entry limit cut the listing. */
  truncated: boolean;
}

export interface SearchMatch {
  path: string;
  line: number;
  text: string;
}

export interface SearchFilesResult {
  pattern: string;
  matches: SearchMatch[];
  files_searched: number;
  truncated: boolean;
}

export type ExecStatus = 'exited' | 'signalled' | 'timed_out' | 'cancelled' | 'connection_lost' | 'failed_to_start';

export interface ExecResult {
  command: string;
  host?: string;
  status: ExecStatus;
  exit_code: number | null;
  signal: string | null;
  duration_ms: number;
  /** The tail of the interleaved stdout/stderr kept for the model. */
  output: string;
  /** Total bytes the command printed. */
  output_bytes: number;
  /** Where the complete output was kept when it was too long to hold. */
  output_path?: string;
}

/**
 * The card's echo of a command (`exec`, `ssh_exec`): how it ended and the end of its output, a few
 * KiB at most whatever the command printed. A type, not an interface, so that it is a record of
 * fields (what a tool's echo returns).
 */
export type ExecEcho = Pick<
  ExecResult,
  'command' | 'host' | 'status' | 'exit_code' | 'signal' | 'duration_ms' | 'output_bytes' | 'output_path'
> & {
  /** Lines of the complete output. */
  output_lines: number;
  /** The last (at most 4000) characters of the output the model got. */
  output: string;
  /** True when `output` is only the end of what the command printed. */
  output_cut: boolean;
  /** Why the command did not start, or how the connection was lost. */
  error?: string;
};

/** A progress report: everything captured so far, bounded to a tail window. */
export interface ToolProgress {
  /** The newest part of the output, at most the live window. */
  text: string;
  /** Bytes captured before `text` that the window no longer holds. */
  cut_bytes: number;
  /** Total bytes captured so far. */
  total_bytes: number;
}
