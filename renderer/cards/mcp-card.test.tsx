// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpEcho } from '../../protocol/echo.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { reduceStatusEvents } from '../store/transcript-reducer.ts';
import { emptyTranscript } from '../store/transcript-types.ts';
import { ActionsContext, createActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import type { Bridge } from '../transport/bridge.ts';
import './registry.ts';
import { CardFrame } from './ToolCard.tsx';

// The MCP card through the real reducer, registry and card frame: live progress, then the text,
// images, the server's own failure, and an XML document as a tree.

afterEach(cleanup);

const started: StatusEvent = {
  type: 'tool_started',
  call_id: 'c1',
  name: 'mcp__everything__get-tiny-image',
  args: {},
  description: { title: 'get-tiny-image on the MCP server "everything"', subtitle: 'everything › get-tiny-image' },
  echo_kind: 'mcp',
};

function echo(fields: Partial<McpEcho>): McpEcho {
  return {
    kind: 'mcp',
    server: 'everything',
    tool: 'get-tiny-image',
    text: 'done',
    text_cut: false,
    images: [],
    images_omitted: 0,
    is_error: false,
    ...fields,
  };
}

function card(events: StatusEvent[]): HTMLElement {
  const transcript = reduceStatusEvents(emptyTranscript(), events);
  // A running card has a Stop button, which reads the actions; nothing here presses it.
  render(
    <ActionsContext.Provider value={createActions({} as Bridge, usePanel)}>
      <CardFrame call={transcript.calls['c1']!} />
    </ActionsContext.Provider>,
  );
  return screen.getByTestId('tool-card');
}

const completed = (result: McpEcho, isError = false): StatusEvent => ({
  type: 'tool_completed',
  call_id: 'c1',
  name: 'mcp__everything__get-tiny-image',
  execution_time: 5,
  is_error: isError,
  result,
});

describe('the MCP card', () => {
  it('shows progress/total and the message live while the call runs', () => {
    const view = card([
      started,
      { type: 'tool_progress', call_id: 'c1', progress: { text: '1/3\n2/3 halfway', cut_bytes: 0, total_bytes: 15 } },
    ]);
    expect(view.getAttribute('data-view')).toBe('mcp');
    expect(screen.getByTestId('mcp-progress').textContent).toBe('1/3\n2/3 halfway');
    expect(screen.getByTestId('card-stop')).toBeTruthy();
  });

  it('names the tool once: server › tool as its title, not beside mcp__server__tool', () => {
    const view = card([started]);
    expect(screen.getByTestId('card-title').textContent).toBe('everything › get-tiny-image');
    expect(screen.queryByTestId('card-subtitle')).toBeNull();
    expect(view.textContent).not.toContain('mcp__everything__get-tiny-image');
    expect(view.getAttribute('aria-label')).toBe('everything › get-tiny-image, running');
  });

  it('shows the result’s text and its images', () => {
    card([
      started,
      completed(echo({ text: 'A tiny image:', images: [{ mime_type: 'image/png', data: 'iVBORw0KGgo=' }] })),
    ]);
    expect(screen.getByTestId('mcp-text').textContent).toBe('A tiny image:');
    const image = screen.getByTestId('mcp-image') as HTMLImageElement;
    expect(image.src).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(image.alt).toBe('Image 1 from get-tiny-image');
  });

  it('plays the result’s audio clips and counts those too large to carry', () => {
    card([
      started,
      completed(echo({ text: 'A clip:', audio: [{ mime_type: 'audio/wav', data: 'UklGRg==' }], audio_omitted: 2 })),
    ]);
    const clip = screen.getByTestId('mcp-audio') as HTMLAudioElement;
    expect(clip.src).toBe('data:audio/wav;base64,UklGRg==');
    expect(clip.controls).toBe(true);
    expect(clip.getAttribute('aria-label')).toBe('Audio 1 from get-tiny-image (audio/wav)');
    expect(screen.getByText('2 more audio clips are too large to play here.')).toBeTruthy();
  });

  it('shows an echo written before audio was carried without a player', () => {
    card([started, completed(echo({ text: 'Older echo' }))]);
    expect(screen.queryByTestId('mcp-audio')).toBeNull();
  });

  it('says the server reported a failure for an isError result', () => {
    card([started, completed(echo({ text: 'no such file', is_error: true }), true)]);
    expect(screen.getByTestId('mcp-result').className).toContain('mcp-error');
    expect(screen.getByText(/The MCP server “everything” reported a failure/)).toBeTruthy();
  });

  it('shows a result that is one XML document as a tree', () => {
    card([started, completed(echo({ text: '<config><item name="a"/></config>' }))]);
    expect(screen.queryByTestId('mcp-text')).toBeNull();
    expect(screen.getByTestId('mcp-result').textContent).toContain('config');
  });
});
