// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsPatch } from '../../protocol/api.ts';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { EditLimitField } from './EditLimitField.tsx';

// The "Largest file to edit" field saves a whole number of MiB within bounds, and puts back the
// saved value for anything else.

afterEach(() => cleanup());

function showField(mib: number): SettingsPatch[] {
  const saved: SettingsPatch[] = [];
  const actions = new Proxy({} as PanelActions, {
    get: (_, name) =>
      name === 'updateSettings' ? async (patch: SettingsPatch) => void saved.push(patch) : async () => undefined,
  });
  render(
    <ActionsContext.Provider value={actions}>
      <EditLimitField mib={mib} />
    </ActionsContext.Provider>,
  );
  return saved;
}

describe('the largest file to edit setting', () => {
  it('saves a new whole number of MiB when the field is left', () => {
    const saved = showField(64);
    const input = screen.getByLabelText('Largest file to edit (MiB)');
    expect(input).toHaveProperty('value', '64');
    fireEvent.change(input, { target: { value: '256' } });
    fireEvent.blur(input);
    expect(saved).toEqual([{ max_edit_file_mib: 256 }]);
  });

  it('puts back the saved value for a number out of bounds or not whole, and saves nothing', () => {
    const saved = showField(64);
    const input = screen.getByLabelText('Largest file to edit (MiB)');
    for (const value of ['0', '4096', '1.5']) {
      fireEvent.change(input, { target: { value } });
      fireEvent.keyDown(input, { key: 'Enter' });
      expect(input).toHaveProperty('value', '64');
    }
    expect(saved).toEqual([]);
  });
});
