// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Result, ToolContent } from '../../protocol/api.ts';
import type { McpEcho, McpResourceEcho } from '../../protocol/echo.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { reduceStatusEvents } from '../store/transcript-reducer.ts';
import { emptyTranscript } from '../store/transcript-types.ts';
import { ActionsContext, createActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import type { Bridge } from '../transport/bridge.ts';
import './registry.ts';
import { downloadName } from './save-bytes.ts';
import { CardFrame } from './ToolCard.tsx';

// An MCP card's binary resources and links (name, type, size, Save… as a download of the kept
// bytes, an image blob as its image), and the images the model received shown in "What the model
// received", through the real reducer, card frame and actions over a bridge that answers here.

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const SHA = 'ab'.repeat(32);
const PNG = 'iVBORw0KGgo=';

function card(resources: McpResourceEcho[], bridge: Partial<Bridge> = {}, omitted = 0): HTMLElement {
  const result: McpEcho = {
    kind: 'mcp',
    server: 'everything',
    tool: 'get-resource-reference',
    text: 'Returning resource reference',
    text_cut: false,
    images: [],
    images_omitted: 0,
    resources,
    ...(omitted ? { resources_omitted: omitted } : {}),
    is_error: false,
  };
  const events: StatusEvent[] = [
    {
      type: 'tool_started',
      call_id: 'c1',
      name: 'mcp__everything__get-resource-reference',
      args: {},
      echo_kind: 'mcp',
    },
    {
      type: 'tool_completed',
      call_id: 'c1',
      name: 'mcp__everything__get-resource-reference',
      execution_time: 3,
      is_error: false,
      result,
    },
  ];
  const transcript = reduceStatusEvents(emptyTranscript(), events);
  render(
    <ActionsContext.Provider value={createActions(bridge as Bridge, usePanel)}>
      <CardFrame call={transcript.calls['c1']!} />
    </ActionsContext.Provider>,
  );
  return screen.getByTestId('tool-card');
}

const blob: McpResourceEcho = {
  type: 'blob',
  uri: 'file:///out/report.tar.gz',
  name: 'report.tar.gz',
  mime_type: 'application/gzip',
  bytes: 2048,
  sha256: SHA,
};

describe('an MCP card’s resources', () => {
  it('names a blob with its type and size, and Save… downloads its kept bytes under its name', async () => {
    const toolBlob = vi.fn(async (): Promise<Result<{ data: string }>> => ({ ok: true, value: { data: 'AAEC/w==' } }));
    const made: Blob[] = [];
    URL.createObjectURL = vi.fn((saved: Blob) => {
      made.push(saved);
      return 'blob:saved';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const view = card([blob], { toolBlob });
    expect(within(view).getByTestId('mcp-resource-name').textContent).toBe('report.tar.gz');
    expect(within(view).getByTestId('mcp-resource-facts').textContent).toBe('application/gzip · 2.0 KiB');
    const save = within(view).getByRole('button', { name: 'Save report.tar.gz…' });
    fireEvent.click(save);
    await vi.waitFor(() => expect(clicked).toHaveLength(1));
    expect(toolBlob).toHaveBeenCalledWith(SHA);
    expect(clicked[0]?.download).toBe('report.tar.gz');
    expect(clicked[0]?.href).toBe('blob:saved');
    expect(made[0]?.type).toBe('application/gzip');
    expect([...new Uint8Array(await made[0]!.arrayBuffer())]).toEqual([0, 1, 2, 255]);
  });

  it('says beside Save… why the bytes could not be had', async () => {
    const toolBlob = async (): Promise<Result<{ data: string }>> => ({ ok: false, error: 'The resource is gone.' });
    const view = card([blob], { toolBlob });
    fireEvent.click(within(view).getByTestId('mcp-resource-save'));
    expect((await within(view).findByRole('alert')).textContent).toBe('The resource is gone.');
    expect((within(view).getByTestId('mcp-resource-save') as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows an image blob as its image, with its name, type and size as the alt text', () => {
    const view = card([{ ...blob, name: 'chart.png', mime_type: 'image/png', bytes: 8, data: PNG }]);
    const image = within(view).getByTestId('mcp-resource-image') as HTMLImageElement;
    expect(image.src).toBe(`data:image/png;base64,${PNG}`);
    expect(image.alt).toBe('chart.png (image/png, 8 bytes)');
  });

  it('names a link with its type, URI and description, and Save… reads it from its server', async () => {
    const mcpResource = vi.fn(async (): Promise<Result<{ data: string; mime_type?: string }>> => ({
      ok: true,
      value: { data: 'IyBIaQ==', mime_type: 'text/markdown' },
    }));
    const made: Blob[] = [];
    URL.createObjectURL = vi.fn((saved: Blob) => {
      made.push(saved);
      return 'blob:link';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const view = card(
      [
        {
          type: 'link',
          uri: 'demo://resource/static/document/architecture.md',
          name: 'architecture.md',
          mime_type: 'text/markdown',
          description: 'How the server is built',
        },
      ],
      { mcpResource },
      3,
    );
    expect(within(view).getByTestId('mcp-resource-facts').textContent).toBe('link · text/markdown');
    expect(within(view).getByTestId('mcp-resource-uri').textContent).toBe(
      'demo://resource/static/document/architecture.md',
    );
    expect(within(view).getByText('How the server is built')).toBeTruthy();
    expect(within(view).getByText('3 more resources are not listed here; the model got them all.')).toBeTruthy();
    fireEvent.click(within(view).getByRole('button', { name: 'Save architecture.md…' }));
    await vi.waitFor(() => expect(clicked).toHaveLength(1));
    expect(mcpResource).toHaveBeenCalledWith('everything', 'demo://resource/static/document/architecture.md');
    expect(clicked[0]?.download).toBe('architecture.md');
    expect(made[0]?.type).toBe('text/markdown');
    expect(await made[0]!.text()).toBe('# Hi');
  });

  it('says a blob whose bytes were not kept cannot be saved', () => {
    const { sha256: _kept, ...unkept } = blob;
    const view = card([unkept]);
    expect(within(view).queryByTestId('mcp-resource-save')).toBeNull();
    expect(within(view).getByTestId('mcp-resource-unsaved').textContent).toMatch(/not kept/);
  });

  it('saves under a name with no folder and nothing a file system refuses', () => {
    expect(downloadName('../../etc/passwd')).toBe('passwd');
    expect(downloadName('a:b?.txt')).toBe('a_b_.txt');
    expect(downloadName('..')).toBe('resource');
    expect(downloadName('.hidden')).toBe('hidden');
  });
});

describe('what the model received', () => {
  it('shows the images the model got, each a button that shows it at full size', async () => {
    const toolContent = async (): Promise<Result<ToolContent>> => ({
      ok: true,
      value: {
        call_id: 'c1',
        name: 'mcp__everything__get-resource-reference',
        content: 'A tiny image:\n[image image/png, 8 B]',
        is_error: false,
        images: [{ sha256: SHA, media_type: 'image/png', bytes: 8 }],
      },
    });
    const image = vi.fn(async () => ({ ok: true as const, value: { media_type: 'image/png' as const, data: PNG } }));
    const view = card([], { toolContent, image });
    fireEvent.click(within(view).getByTestId('full-content-button'));
    const button = await within(view).findByTestId('model-image-button');
    const shown = within(button).getByTestId('model-image') as HTMLImageElement;
    expect(image).toHaveBeenCalledWith(SHA);
    expect(shown.src).toBe(`data:image/png;base64,${PNG}`);
    expect(shown.alt).toBe('Image 1 of 1 the model received, PNG, 8 bytes');
    expect(button.getAttribute('aria-label')).toBe(
      'Image 1 of 1 the model received, PNG, 8 bytes. Show it at full size',
    );
    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(shown.className).toBe('model-image-full');
  });
});
