import { describe, expect, it } from 'vitest';
import { composerHint, composerKeyAction, keysHelp, sendModifier, type ComposerKey } from './composer-keys.ts';

const key = (name: string, modifiers: Partial<ComposerKey> = {}): ComposerKey => ({
  key: name,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  isComposing: false,
  ...modifiers,
});

describe('composer keys', () => {
  it('sends on Enter and leaves Shift+Enter to insert a new line by default', () => {
    expect(composerKeyAction(key('Enter'), 'enter', false)).toBe('send');
    expect(composerKeyAction(key('Enter', { shiftKey: true }), 'enter', false)).toBeNull();
  });

  it('sends on Ctrl/Cmd+Enter only, when the setting asks for it, and leaves Enter to the new line', () => {
    expect(composerKeyAction(key('Enter'), 'ctrl-enter', false)).toBeNull();
    expect(composerKeyAction(key('Enter', { ctrlKey: true }), 'ctrl-enter', false)).toBe('send');
    expect(composerKeyAction(key('Enter', { metaKey: true }), 'ctrl-enter', false)).toBe('send');
  });

  it('still sends on Ctrl/Cmd+Enter when Enter is the send key', () => {
    expect(composerKeyAction(key('Enter', { ctrlKey: true }), 'enter', false)).toBe('send');
  });

  it('never sends on the Enter that confirms an input method’s candidate', () => {
    expect(composerKeyAction(key('Enter', { isComposing: true }), 'enter', false)).toBeNull();
    expect(composerKeyAction(key('Enter', { isComposing: true, ctrlKey: true }), 'ctrl-enter', false)).toBeNull();
  });

  it('queues on Alt+Enter in either send mode, and not while an input method composes', () => {
    expect(composerKeyAction(key('Enter', { altKey: true }), 'enter', false)).toBe('queue');
    expect(composerKeyAction(key('Enter', { altKey: true }), 'ctrl-enter', false)).toBe('queue');
    expect(composerKeyAction(key('Enter', { altKey: true, isComposing: true }), 'enter', false)).toBeNull();
    expect(composerKeyAction(key('Enter', { altKey: true, shiftKey: true }), 'enter', false)).toBeNull();
  });

  it('names steer and queue in the hint while a turn runs', () => {
    expect(composerHint('enter', 'Ctrl', true)).toBe('Enter steer · Alt+Enter queue · Shift+Enter new line · Esc stop');
    expect(composerHint('ctrl-enter', 'Cmd', true)).toMatch(/^Cmd\+Enter steer · Alt\+Enter queue · Enter new line/);
  });

  it('cycles the permission mode on Shift+Tab only while the box is empty, so with text focus moves on', () => {
    expect(composerKeyAction(key('Tab', { shiftKey: true }), 'enter', true)).toBe('cycle-mode');
    expect(composerKeyAction(key('Tab', { shiftKey: true }), 'enter', false)).toBeNull();
    expect(composerKeyAction(key('Tab'), 'enter', true)).toBeNull();
  });

  it('cycles the effort on Alt+T, with text or without, and by the key’s place when a Mac types † for it', () => {
    expect(composerKeyAction(key('t', { altKey: true, code: 'KeyT' }), 'enter', false)).toBe('cycle-effort');
    expect(composerKeyAction(key('†', { altKey: true, code: 'KeyT' }), 'enter', true)).toBe('cycle-effort');
    expect(composerKeyAction(key('t', { code: 'KeyT' }), 'enter', true)).toBeNull();
    expect(composerKeyAction(key('t', { altKey: true, ctrlKey: true, code: 'KeyT' }), 'enter', true)).toBeNull();
    expect(composerKeyAction(key('T', { altKey: true, shiftKey: true, code: 'KeyT' }), 'enter', true)).toBeNull();
  });

  it('names the current send key, the mode key with its empty-box rule, and the effort key in the hint', () => {
    expect(composerHint('enter', 'Ctrl')).toBe(
      'Enter send · Shift+Enter new line · Esc stop · Shift+Tab mode (empty box) · Alt+T effort',
    );
    expect(composerHint('ctrl-enter', 'Cmd')).toMatch(/^Cmd\+Enter send · Enter new line · /);
  });

  it('lists every key of the message box for /help, with this send key', () => {
    const help = keysHelp('ctrl-enter', 'Cmd');
    expect(help).toMatch(/^Keys: Cmd\+Enter send/);
    for (const part of [
      'Enter new line',
      'Alt+Enter queue',
      'Shift+Tab permission mode',
      'Alt+T reasoning effort',
      'Cmd+F find',
    ])
      expect(help).toContain(part);
  });

  it('calls the modifier Cmd on Apple systems and Ctrl elsewhere', () => {
    expect(sendModifier('MacIntel')).toBe('Cmd');
    expect(sendModifier('Linux x86_64')).toBe('Ctrl');
    expect(sendModifier('Win32')).toBe('Ctrl');
  });
});
