import { beforeEach, describe, expect, it, vi } from 'vitest';
import { dialog, resetFakeElectron, shell } from '../../test/fake-electron.ts';
import { confirmAndOpenExternal, openSignInPage } from './links.ts';

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

describe("an MCP server's authorization page", () => {
  it("opens in the browser without a second question (Sign in was the person's yes)", async () => {
    await openSignInPage(new URL('https://auth.example.com/authorize?client_id=a&state=b'));
    await openSignInPage(new URL('http://127.0.0.1:8123/authorize'));
    expect(shell.opened).toEqual([
      'https://auth.example.com/authorize?client_id=a&state=b',
      'http://127.0.0.1:8123/authorize',
    ]);
    expect(dialog.shown).toEqual([]);
  });

  it('refuses a page that is neither https: nor on this machine, saying so', async () => {
    await expect(openSignInPage(new URL('http://auth.example.com/authorize'))).rejects.toThrow(
      'The authorization page was not opened: Only https: links (and http: to this machine) open outside the panel',
    );
    expect(shell.opened).toEqual([]);
  });
});
