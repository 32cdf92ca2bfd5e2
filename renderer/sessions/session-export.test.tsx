// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Result, SessionSummary } from '../../protocol/api.ts';
import type { SessionExport, SessionExportFormat } from '../../protocol/session-export.ts';
import { ActionsContext, createActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import type { Bridge } from '../transport/bridge.ts';
import { SessionItem } from './SessionItem.tsx';

// Export… on a session of the list: the person picks Markdown or an HTML page, the panel asks the
// host for the file and saves it as a download (which the desktop app turns into its save dialog);
// a refusal goes to the banner.

const summary: SessionSummary = {
  id: '20250101-000000-abcdef',
  title: 'Fix the sum',
  workspace: '/w',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:10:00Z',
};

let saved: { name: string; blob: Blob }[];
beforeEach(() => {
  saved = [];
  let made: Blob | null = null;
  URL.createObjectURL = (blob: Blob) => ((made = blob), 'blob:app://panel/export');
  URL.revokeObjectURL = () => undefined;
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (made) saved.push({ name: this.download, blob: made });
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  usePanel.setState({ error: null });
});

function item(answer: (id: string, format: SessionExportFormat) => Result<SessionExport>) {
  const asked: [string, SessionExportFormat][] = [];
  const bridge = {
    exportSession: async (id: string, format: SessionExportFormat) => {
      asked.push([id, format]);
      return answer(id, format);
    },
  } as unknown as Bridge;
  render(
    <ActionsContext.Provider value={createActions(bridge, usePanel)}>
      <ul>
        <SessionItem session={summary} current={false} />
      </ul>
    </ActionsContext.Provider>,
  );
  return asked;
}

describe('Export… in the session list', () => {
  it('saves the HTML page the host made, under the name it suggests', async () => {
    const asked = item(() => ({
      ok: true,
      value: { name: 'Fix-the-sum.html', mime: 'text/html', text: '<!doctype html><title>Fix the sum</title>' },
    }));
    fireEvent.click(screen.getByTestId('session-export'));
    fireEvent.click(screen.getByTestId('session-export-html'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(asked).toEqual([[summary.id, 'html']]);
    expect(saved[0]?.name).toBe('Fix-the-sum.html');
    expect(saved[0]?.blob.type).toBe('text/html;charset=utf-8');
    expect(await saved[0]?.blob.text()).toBe('<!doctype html><title>Fix the sum</title>');
    // The choice goes away once the file is handed over.
    await waitFor(() => expect(screen.queryByTestId('session-export-html')).toBeNull());
  });

  it('shows why an export failed in the banner and saves nothing', async () => {
    item(() => ({ ok: false, error: 'No readable session 20250101-000000-abcdef: its file is missing.' }));
    fireEvent.click(screen.getByTestId('session-export'));
    fireEvent.click(screen.getByTestId('session-export-markdown'));
    await waitFor(() => expect(usePanel.getState().error ?? '').toContain('its file is missing'));
    expect(saved).toEqual([]);
  });
});
