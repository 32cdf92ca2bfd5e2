import { dialog, type BrowserWindow } from 'electron';

// A question only the person can answer: a native dialog the panel page can neither draw nor click.

export interface Confirmation {
  /** The button that goes ahead; Cancel is the default. */
  action: string;
  message: string;
  detail: string;
}

/** True when the person chose `action`; on `parent` while it is open, else as a window of its own. */
export async function confirmInDialog(parent: BrowserWindow | null | undefined, ask: Confirmation): Promise<boolean> {
  const options = {
    type: 'question' as const,
    buttons: [ask.action, 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    message: ask.message,
    detail: ask.detail,
  };
  const { response } =
    parent && !parent.isDestroyed()
      ? await dialog.showMessageBox(parent, options)
      : await dialog.showMessageBox(options);
  return response === 0;
}
