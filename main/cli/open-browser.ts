import { spawn } from 'node:child_process';

// Opens a URL in the person's default browser with the system's own opener, arguments passed
// as a list (no shell). The opener runs detached, so the command line's exit never waits for it.

/** The opener and its arguments for this platform. */
export function browserOpener(platform: NodeJS.Platform, url: string): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start`'s first quoted argument is a window title; the empty one keeps the URL from being taken as it.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url.replace(/&/g, '^&')] };
  return { command: 'xdg-open', args: [url] };
}

/** Starts the opener; resolves with null once it started, or a sentence saying why it could not. */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<string | null> {
  const { command, args } = browserOpener(platform, url);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, windowsHide: true });
    child.once('error', (error) =>
      resolve(`Could not open a browser with ${command} (${error.message}); open the address above yourself.`),
    );
    child.once('spawn', () => {
      child.unref();
      resolve(null);
    });
  });
}
