// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Result } from '../../protocol/api.ts';
import type { McpChange, McpScreen, McpSecretView } from '../../protocol/mcp.ts';
import { McpSecretField } from './McpSecretField.tsx';

// The secret field of the MCP servers screen: in the desktop app it sets, replaces and clears a
// secret the server names and never shows a value back; elsewhere it names the variable to set.

afterEach(cleanup);

const SCREEN: McpScreen = {
  servers: [],
  problems: [],
  files: { user: '', workspace: '' },
  secrets_storable: true,
  sign_in_opens: 'host',
};

function show(secret: McpSecretView, storable: boolean, answer: Result<McpScreen> = { ok: true, value: SCREEN }) {
  const sent: McpChange[] = [];
  const submit = async (request: McpChange) => {
    sent.push(request);
    return answer;
  };
  render(<McpSecretField server="hosted" secret={secret} storable={storable} submit={submit} />);
  return sent;
}

describe('the MCP secret field', () => {
  it('sets a secret submitted from the field (Enter or Set), empties the field and says it was saved', async () => {
    const sent = show({ name: 'API_TOKEN', set: false, from: null }, true);
    expect(screen.getByTestId('mcp-secret-status').textContent).toBe('not set');
    const input = screen.getByLabelText(/API_TOKEN/) as HTMLInputElement;
    expect(input.type).toBe('password');
    fireEvent.change(input, { target: { value: ' tok-123 ' } });
    fireEvent.submit(input.form!);
    await waitFor(() => expect(screen.getByTestId('mcp-secret-message').textContent).toContain('Secret saved'));
    expect(sent).toEqual([{ action: 'secret', name: 'hosted', secret: 'API_TOKEN', value: 'tok-123' }]);
    expect(input.value).toBe('');
  });

  it('clears a set secret, and shows why when the app refuses to store one', async () => {
    const sent = show({ name: 'API_TOKEN', set: true, from: 'app' }, true, {
      ok: false,
      error: 'No keyring is running.',
    });
    expect(screen.getByTestId('mcp-secret-save').textContent).toBe('Replace');
    fireEvent.click(screen.getByTestId('mcp-secret-clear'));
    await waitFor(() => expect(screen.getByTestId('mcp-secret-message').textContent).toBe('No keyring is running.'));
    expect(sent).toEqual([{ action: 'secret', name: 'hosted', secret: 'API_TOKEN', value: null }]);
  });

  it('says a set secret comes from the environment, offering Set but no Clear, which would change nothing', () => {
    show({ name: 'API_TOKEN', set: true, from: 'environment' }, true);
    expect(screen.getByTestId('mcp-secret-status').textContent).toBe('set');
    expect(screen.getByTestId('mcp-secret-from').textContent).toContain('From the environment variable API_TOKEN');
    expect(screen.getByTestId('mcp-secret-save').textContent).toBe('Set');
    expect(screen.queryByTestId('mcp-secret-clear')).toBeNull();
  });

  it('names the environment variable where secrets cannot be stored, offering no field', () => {
    show({ name: 'API_TOKEN', set: false, from: null }, false);
    expect(screen.queryByTestId('mcp-secret-input')).toBeNull();
    expect(screen.getByTestId('mcp-secret-API_TOKEN').textContent).toContain('From the environment variable API_TOKEN');
  });
});
