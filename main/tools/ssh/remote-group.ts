import { randomBytes } from 'node:crypto';
import type { Client } from 'ssh2';

// Stopping a remote command for sure. OpenSSH refuses signal requests for root logins, and a
// command that ignores SIGHUP survives its channel closing; so the command line starts with a small
// sh that prints the command's process group id on a first line the client consumes, and a stop
// kills that group over a second channel (TERM, then KILL after the grace) and reports whether it is
// gone. The reporter and the kill script are POSIX sh; the command itself runs in the user's shell.

/**
 * The command line the user's shell gets: a child sh prints its own process group, which is the
 * shell's (a shell without job control keeps its children in its group, the session's under a
 * terminal), then the command runs in that same shell. So the shell sshd started runs the command:
 * the account's start-up files are read once, as for `ssh host command`, and what they define is
 * there. The sh costs a fork, not a second start-up of the user's shell.
 */
export function wrapCommand(command: string, nonce: string): string {
  const report = [
    // Linux without a fork; elsewhere ps.
    'if [ -r /proc/$$/stat ]; then read -r _ _ _ _ g _ </proc/$$/stat; else g=$(ps -o pgid= -p $$); fi',
    `printf '${markerPrefix(nonce)}%s\\n' $g`,
  ].join('; ');
  return `sh -c ${shellQuote(report)}\n${command}`;
}

export function newNonce(): string {
  return randomBytes(6).toString('hex');
}

function markerPrefix(nonce: string): string {
  return `AETHER_PGID_${nonce} `;
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Looks for the marker line at the start of the output; everything else passes through untouched. */
export class GroupMarker {
  /** The remote process group, once its line arrived. */
  pgid: number | null = null;
  private readonly prefix: Buffer;
  private pending: Buffer | null = Buffer.alloc(0);

  constructor(nonce: string) {
    this.prefix = Buffer.from(markerPrefix(nonce));
  }

  /** The part of `chunk` that is the command's output. */
  take(chunk: Buffer): Buffer {
    if (this.pending === null) return chunk;
    const seen = Buffer.concat([this.pending, chunk]);
    const newline = seen.indexOf(0x0a);
    const prefixSoFar = seen.subarray(0, Math.min(seen.length, this.prefix.length));
    if (!this.prefix.subarray(0, prefixSoFar.length).equals(prefixSoFar)) return this.passThrough(seen);
    if (newline === -1) {
      // The line is not complete yet; a marker line is short, so anything longer is not one.
      if (seen.length > this.prefix.length + 12) return this.passThrough(seen);
      this.pending = seen;
      return Buffer.alloc(0);
    }
    const id = Number(seen.subarray(this.prefix.length, newline).toString('latin1').trim());
    this.pending = null;
    if (Number.isInteger(id) && id > 1) this.pgid = id;
    return seen.subarray(newline + 1);
  }

  /** Output held while it might still have been the marker, at the end of the command. */
  flush(): Buffer {
    const rest = this.pending ?? Buffer.alloc(0);
    this.pending = null;
    return rest;
  }

  private passThrough(seen: Buffer): Buffer {
    this.pending = null;
    return seen;
  }
}

/** Whether the stop is confirmed: the group is gone, or why it could not be confirmed. */
export type RemoteStop = { confirmed: true } | { confirmed: false; reason: string };

const POLL_S = 0.1;
/** After SIGKILL the group lingers as zombies until they are reaped: wait this long for that. */
const REAP_S = 3;

/**
 * The kill script: TERM, poll until the group is gone or the grace ends, KILL, poll again. A group
 * of zombies counts as gone (ps tells them apart where it can; kill -0 alone cannot).
 */
function killScript(pgid: number, graceMs: number): string {
  const polls = Math.max(1, Math.ceil(graceMs / 1000 / POLL_S));
  return [
    `p=${pgid}`,
    "if ps -o pgid= -p $$ >/dev/null 2>&1; then alive() { ps -e -o pgid= -o stat= | awk -v g=$p '$1 == g && $2 !~ /^Z/ { f = 1 } END { exit !f }'; }",
    'else alive() { kill -0 -$p 2>/dev/null; }; fi',
    'settle() { i=0; while [ $i -lt $1 ]; do alive || { echo gone; exit 0; }; sleep ' +
      POLL_S +
      '; i=$((i+1)); done; }',
    `kill -TERM -$p 2>/dev/null; settle ${polls}`,
    `kill -KILL -$p 2>/dev/null; settle ${Math.max(polls, Math.ceil(REAP_S / POLL_S))}`,
    'echo alive',
  ].join('\n');
}

/** Kills the remote process group over a channel of its own: TERM, KILL after the grace, then checks it is gone. */
export function killRemoteGroup(client: Client, pgid: number, graceMs: number, label: string): Promise<RemoteStop> {
  const script = killScript(pgid, graceMs);
  return new Promise((resolve) => {
    client.exec(`sh -c ${shellQuote(script)}`, (error, channel) => {
      if (error) {
        resolve({
          confirmed: false,
          reason: `${label} refused a second channel to stop it (${error.message}); it may still be running as process group ${pgid}`,
        });
        return;
      }
      let output = '';
      channel.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      channel.stderr.on('data', () => undefined);
      channel.on('close', () => {
        if (/\bgone\b/.test(output)) resolve({ confirmed: true });
        else if (/\balive\b/.test(output))
          resolve({ confirmed: false, reason: `process group ${pgid} on ${label} was still there after SIGKILL` });
        else
          resolve({
            confirmed: false,
            reason: `the check on ${label} ended without an answer; process group ${pgid} may still be running`,
          });
      });
    });
  });
}
