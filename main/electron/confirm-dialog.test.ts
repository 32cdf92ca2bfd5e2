import type { BrowserWindow as ElectronWindow } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { BrowserWindow, dialog, resetFakeElectron } from '../../test/fake-electron.ts';
import { confirmInDialog } from './confirm-dialog.ts';

vi.mock('electron', () => import('../../test/fake-electron.ts'));

beforeEach(() => resetFakeElectron());

const ask = { action: 'Go ahead', message: 'Go ahead?', detail: 'what happens' };

describe('a confirmation in a native dialog', () => {
  it('is true only for the action button, which is not the default', async () => {
    dialog.answers.push(0, 1);
    expect(await confirmInDialog(undefined, ask)).toBe(true);
    expect(await confirmInDialog(undefined, ask)).toBe(false);
    expect(dialog.shown[0]).toMatchObject({ buttons: ['Go ahead', 'Cancel'], defaultId: 1, cancelId: 1 });
  });

  it('sits on an open window, and stands alone once that window is closed', async () => {
    const showing = vi.spyOn(dialog, 'showMessageBox');
    const parent = new BrowserWindow({});
    await confirmInDialog(parent as unknown as ElectronWindow, ask);
    parent.destroyed = true;
    await confirmInDialog(parent as unknown as ElectronWindow, ask);
    expect(showing.mock.calls.map((args) => args.length)).toEqual([2, 1]);
  });
});
