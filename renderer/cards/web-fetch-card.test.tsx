// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebFetchEcho } from '../../protocol/echo.ts';
import type { StatusEvent } from '../../protocol/events.ts';
import { ActionsContext, createActions } from '../actions.ts';
import { usePanel } from '../store/store.ts';
import { reduceStatusEvents } from '../store/transcript-reducer.ts';
import { emptyTranscript } from '../store/transcript-types.ts';
import type { Bridge } from '../transport/bridge.ts';
import { echoPlainText } from './echo.ts';
import './registry.ts';
import { CardFrame } from './ToolCard.tsx';

// The web page card through the real reducer, registry and card frame: the page's title, its host,
// type and size, where it came from, and a failure as an error.

afterEach(cleanup);

const started: StatusEvent = {
  type: 'tool_started',
  call_id: 'c1',
  name: 'web_fetch',
  args: { url: 'https://docs.python.org/3/library/json.html' },
  description: {
    title: 'Fetch a page from docs.python.org',
    subtitle: 'docs.python.org/3/library/json.html',
    detail: 'https://docs.python.org/3/library/json.html',
  },
  echo_kind: 'web-fetch',
};

function echo(fields: Partial<WebFetchEcho> = {}): WebFetchEcho {
  return {
    kind: 'web-fetch',
    url: 'https://docs.python.org/3/library/json.html',
    final_url: 'https://docs.python.org/3/library/json.html',
    host: 'docs.python.org',
    redirects: 0,
    status: 200,
    content_type: 'text/html',
    title: 'json — JSON encoder and decoder',
    format: 'article',
    bytes: 86_220,
    cut: false,
    text_chars: 41_873,
    excerpt: 'JSON (JavaScript Object Notation) is a lightweight data interchange format.',
    ...fields,
  };
}

function card(events: StatusEvent[]): HTMLElement {
  const transcript = reduceStatusEvents(emptyTranscript(), events);
  render(
    <ActionsContext.Provider value={createActions({} as Bridge, usePanel)}>
      <CardFrame call={transcript.calls['c1']!} />
    </ActionsContext.Provider>,
  );
  return screen.getByTestId('tool-card');
}

const completed = (
  result: Extract<StatusEvent, { type: 'tool_completed' }>['result'],
  isError = false,
): StatusEvent => ({
  type: 'tool_completed',
  call_id: 'c1',
  name: 'web_fetch',
  execution_time: 640,
  is_error: isError,
  result,
});

describe('the web page card', () => {
  it('shows the title, then the host, type and size, and the summary', () => {
    const shown = card([started, completed(echo())]);
    expect(shown.getAttribute('data-view')).toBe('web-fetch');
    expect(within(shown).getByTestId('card-subtitle').textContent).toContain('docs.python.org/3/library/json.html');
    expect(within(shown).getByTestId('web-fetch-title').textContent).toBe('json — JSON encoder and decoder');
    expect(within(shown).getByTestId('web-fetch-facts').textContent).toBe(
      'docs.python.org · text/html · 84.2 KiB · main text → 41,873 characters',
    );
    expect(within(shown).getByTestId('web-fetch-excerpt').textContent).toContain('lightweight data interchange');
  });

  it('says when the page was cut and where redirects ended; a page without a title shows its URL', () => {
    const redirected = echo({
      title: undefined,
      final_url: 'https://www.example.org/new/place',
      host: 'www.example.org',
      redirects: 2,
      cut: true,
      format: 'page',
      content_type: '',
    });
    const shown = card([started, completed(redirected)]);
    expect(within(shown).getByTestId('web-fetch-title').textContent).toBe('https://www.example.org/new/place');
    expect(within(shown).getByTestId('web-fetch-facts').textContent).toBe(
      'www.example.org · no type · 84.2 KiB · cut at the size limit · 2 redirects · whole page → 41,873 characters',
    );
    expect(within(shown).getByTestId('web-fetch-url').textContent).toBe('https://www.example.org/new/place');
  });

  it("shows a refusal's text as an error", () => {
    const refused = completed(
      { kind: 'text', text: '127.0.0.1 is a private, loopback or link-local address, which web_fetch does not reach.' },
      true,
    );
    const shown = card([started, refused]);
    expect(within(shown).getByTestId('card-error').textContent).toContain('127.0.0.1 is a private');
    expect(within(shown).queryByTestId('web-fetch')).toBeNull();
  });

  it('copies as its title, URL and summary', () => {
    expect(echoPlainText(echo())).toBe(
      'json — JSON encoder and decoder\nhttps://docs.python.org/3/library/json.html\nJSON (JavaScript Object Notation) is a lightweight data interchange format.',
    );
  });
});
