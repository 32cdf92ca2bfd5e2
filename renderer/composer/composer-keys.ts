import type { SendKey } from '../../protocol/api.ts';

// What a key pressed in the message box does. Shift+Tab cycles the permission mode (ask → plan →
// auto) only while the box is empty: with text in it, it moves focus back as everywhere else, so it
// never traps focus. Alt+T cycles the reasoning effort (by the key's place, so Option+T on a Mac,
// which types a character, does it too). While a turn runs, sending steers it; Alt+Enter queues the
// message as the next turn instead.

export type ComposerKeyAction = 'send' | 'queue' | 'cycle-mode' | 'cycle-effort' | null;

export interface ComposerKey {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** An input method is composing (Enter confirms its candidate, it must not send). */
  isComposing: boolean;
  /** The physical key (`KeyT`), whatever character the layout and modifiers make of it. */
  code?: string;
}

export function composerKeyAction(key: ComposerKey, sendKey: SendKey, empty: boolean): ComposerKeyAction {
  if (key.key === 'Enter' && !key.isComposing && key.altKey && !key.ctrlKey && !key.metaKey && !key.shiftKey)
    return 'queue';
  if (key.key === 'Enter' && !key.isComposing && !key.altKey) {
    // Ctrl/Cmd+Enter sends in either mode, so the habit of the other one still works.
    if (key.ctrlKey || key.metaKey) return 'send';
    if (sendKey === 'enter' && !key.shiftKey) return 'send';
    return null;
  }
  if (key.key === 'Tab' && key.shiftKey && !key.ctrlKey && !key.metaKey && !key.altKey && empty) return 'cycle-mode';
  const isT = key.code === 'KeyT' || key.key.toLowerCase() === 't';
  if (isT && key.altKey && !key.ctrlKey && !key.metaKey && !key.shiftKey && !key.isComposing) return 'cycle-effort';
  return null;
}

/** The modifier's name on this platform: Cmd on Apple systems, Ctrl elsewhere. */
export function sendModifier(platform: string): string {
  return /mac|iphone|ipad/i.test(platform) ? 'Cmd' : 'Ctrl';
}

/** This machine's name for the modifier. */
export const SEND_MODIFIER = sendModifier(typeof navigator === 'undefined' ? '' : navigator.platform);

/** The key that sends, as the hints name it. */
export function sendKeyName(sendKey: SendKey, modifier: string): string {
  return sendKey === 'enter' ? 'Enter' : `${modifier}+Enter`;
}

/** The key hint under the message box, for the current send key; while a turn runs, how to steer or queue. */
export function composerHint(sendKey: SendKey, modifier: string, running = false): string {
  const newLine = sendKey === 'enter' ? 'Shift+Enter' : 'Enter';
  if (running) return `${sendKeyName(sendKey, modifier)} steer · Alt+Enter queue · ${newLine} new line · Esc stop`;
  const send = `${sendKeyName(sendKey, modifier)} send · ${newLine} new line`;
  return `${send} · Esc stop · Shift+Tab mode (empty box) · Alt+T effort`;
}

/** Every key of the message box, for /help. */
export function keysHelp(sendKey: SendKey, modifier: string): string {
  const newLine = sendKey === 'enter' ? 'Shift+Enter' : 'Enter';
  return [
    `Keys: ${sendKeyName(sendKey, modifier)} send (steers a running turn)`,
    `${newLine} new line`,
    'Alt+Enter queue',
    'Esc stop',
    'Shift+Tab permission mode (empty box)',
    'Alt+T reasoning effort',
    '↑/↓ earlier prompts',
    'Shift+Delete forget the one shown',
    `${modifier}+F find`,
  ].join(' · ');
}

export type CompletionKeyAction = 'next' | 'previous' | 'pick' | 'run' | 'close' | null;

/**
 * What a key does while a completion menu is open: ↑/↓ move, Tab picks, Enter picks (and runs a
 * command that takes no arguments), Esc closes the menu. Anything else types as usual.
 */
export function completionKeyAction(key: ComposerKey): CompletionKeyAction {
  if (key.isComposing || key.ctrlKey || key.metaKey || key.altKey) return null;
  if (key.key === 'ArrowDown') return 'next';
  if (key.key === 'ArrowUp') return 'previous';
  if (key.key === 'Escape') return 'close';
  if (key.shiftKey) return null;
  if (key.key === 'Tab') return 'pick';
  if (key.key === 'Enter') return 'run';
  return null;
}
