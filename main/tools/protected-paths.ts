// Paths where a write becomes a command: git runs hooks and config-named programs from `.git/`,
// the app reads its own permissions and commands from `.aethercodex/`, and editors run the tasks,
// launch configurations and settings-named programs of their project files. A write to any of them
// always asks the person (only the `bypass` permission mode skips this), whatever the rules allow.
//
// Matching is on `/`-separated workspace-relative paths, at any depth (a nested repository's hooks
// run too), always case-insensitively (`.GIT/config` is git's own file on macOS and Windows, and an
// extra question on Linux costs little), and ignoring the trailing dots and spaces Windows drops.

interface ProtectedPath {
  /** True when the lower-cased segments name this protected path. */
  matches(segments: readonly string[]): boolean;
  why: string;
}

const PROTECTED: readonly ProtectedPath[] = [
  {
    matches: (segments) => segments.includes('.git'),
    why: 'git runs hooks and programs named in its config (core.fsmonitor, core.hooksPath, aliases) from .git/, so changing it can run commands the next time you use git',
  },
  {
    matches: (segments) => segments.includes('.aethercodex'),
    why: "it holds this app's own configuration (permissions, MCP servers, commands), so changing it can change what the app lets the model do",
  },
  {
    matches: (segments) =>
      segments.some(
        (segment, index) =>
          segment === '.vscode' && ['tasks.json', 'launch.json', 'settings.json'].includes(segments[index + 1] ?? ''),
      ),
    why: 'VS Code runs the tasks and launch configurations in .vscode/, and its settings can name programs the editor runs',
  },
  {
    matches: (segments) => segments.at(-1)?.endsWith('.code-workspace') ?? false,
    why: 'a VS Code workspace file holds settings, tasks and launch configurations the editor runs',
  },
  {
    matches: (segments) => segments.includes('.idea'),
    why: 'JetBrains IDEs run the run configurations, external tools and startup tasks kept in .idea/',
  },
];

/** Why writing this workspace-relative path can run commands; null when it cannot. */
export function protectedPathReason(relative: string): string | null {
  const segments = relative
    .toLowerCase()
    .split(/[\\/]+/)
    .map((segment) => segment.replace(/[. ]+$/, (tail) => (segment === tail ? tail : '')))
    .filter((segment) => segment !== '' && segment !== '.');
  return PROTECTED.find((entry) => entry.matches(segments))?.why ?? null;
}

/** The reason for the first protected path among the named and real paths of a call. */
export function protectedReason(
  paths: readonly { named: string; real: string }[],
): { path: string; why: string } | null {
  for (const entry of paths) {
    for (const candidate of [entry.named, entry.real]) {
      const why = protectedPathReason(candidate);
      if (why) return { path: candidate, why };
    }
  }
  return null;
}
