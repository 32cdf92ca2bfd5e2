import { beforeEach, describe, expect, it, vi } from 'vitest';
import { dialog, resetFakeElectron, shell } from '../../test/fake-electron.ts';
import { confirmAndOpenExternal } from './links.ts';

vi.mock('electron', () => import('../../test/fake-electron.ts'));

beforeEach(() => resetFakeElectron());

describe('external links', () => {
  it('opens an https: link after the person confirms', async () => {
    dialog.answers.push(0);
    expect(await confirmAndOpenExternal('https://example.com/docs')).toEqual({ ok: true, value: undefined });
    expect(shell.opened).toEqual(['https://example.com/docs']);
    expect(dialog.shown).toEqual([expect.objectContaining({ detail: 'https://example.com/docs' })]);
  });

  it('opens nothing when the person cancels', async () => {
    dialog.answers.push(1);
    expect(await confirmAndOpenExternal('https://example.com/')).toMatchObject({ ok: false });
    expect(shell.opened).toEqual([]);
  });

  it('refuses anything but https: without asking', async () => {
    for (const url of [
      'http://example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'not a url',
    ]) {
      expect(await confirmAndOpenExternal(url)).toMatchObject({ ok: false });
    }
    expect(dialog.shown).toEqual([]);
    expect(shell.opened).toEqual([]);
  });
});
