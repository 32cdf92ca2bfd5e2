// Types of cli-bundle.js, which runs before any TypeScript is loaded.

export const MANIFEST: string;
export const MANIFEST_FORMAT: number;

/** What out/cli/manifest.json holds. */
export interface CliManifest {
  format: number;
  /** The entry file, in the bundle's folder. */
  entry: string;
  /** Every file this build wrote, in the bundle's folder. */
  files: string[];
  /** The previous build's files, kept for a process still running from it. */
  previous: string[];
  /** Every file the bundle was built from, relative to the repository: [path, mtimeMs, size]. */
  inputs: [string, number, number][];
}

export function currentBundle(root: string, dir?: string): { entry: string } | { stale: string };
