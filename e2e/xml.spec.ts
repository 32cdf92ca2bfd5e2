import path from 'node:path';
import { SessionLog } from '../main/session/session-log.ts';
import { SessionSink } from '../main/session/session-sink.ts';
import { textEcho } from '../main/tools/call-echo.ts';
import { expect, test, type Panel } from './panel-fixture.ts';

// The readable-XML contract as a person sees it. The tree is the generic card's fallback for a
// result whose tool has no view of its own and is unknown to this build: a replayed call of a tool
// the session had and this build does not. Such a session is written with the product's own session
// writer, then opened from the session list. A known tool keeps its literal XML, whether it has a
// view of its own (exec) or shows on the generic card (search_files).

const FEED = `<feed title="Releases">
  <entry version="2.1.0" date="2026-11-02">
    <summary>Faster startup</summary>
    <change kind="perf">Tools load on first use</change>
    <change kind="fix">Session list is newest first</change>
    <change kind="fix">Copied transcripts keep code fences</change>
    <change kind="fix">Esc stops a running command</change>
  </entry>
  <entry version="2.0.0" date="2026-10-12">
    <summary>Code Mode</summary>
    <change kind="feature">Programs call tools through run_code</change>
    <change kind="feature">One card per program</change>
    <change kind="fix">Spilled output names its file</change>
  </entry>
</feed>`;

const MALFORMED = '<feed><entry version="2.1.0"></feed>';
const DOCTYPE = '<!DOCTYPE feed [<!ENTITY boom "BOOM-EXPANDED">]>\n<feed>&boom;</feed>';

interface ReplayedCall {
  id: string;
  /** The result text the tool gave. */
  text: string;
  /** Default `fetch_feed`, a tool this build does not have. */
  tool?: string;
}

/**
 * Writes a finished session of this workspace whose turn made one call per entry. The sessions
 * folder is the fixture's (`AETHERCODEX_SESSIONS`, beside the workspace).
 */
async function writeReplayedSession(panel: Panel, title: string, calls: ReplayedCall[]): Promise<void> {
  const log = await SessionLog.create({
    root: path.join(path.dirname(panel.workspace), 'sessions'),
    workspace: panel.workspace,
    model: 'compat:replayed',
  });
  const sink = new SessionSink(log, { emit: () => undefined });
  const turn_id = 'turn_feed';
  await sink.emit({ type: 'user_message', turn_id, text: title });
  await sink.emit({ type: 'turn_started', turn_id, model: 'compat:replayed' });
  const named = calls.map((call) => ({
    ...call,
    name: call.tool ?? 'fetch_feed',
    args: { url: `https://example.com/${call.id}.xml` },
  }));
  const tool_calls = named.map((call) => ({ call_id: call.id, name: call.name, args: call.args }));
  await sink.emit({ type: 'assistant_message', turn_id, text: '', tool_calls });
  for (const call of named) {
    await sink.emit({ type: 'tool_started', call_id: call.id, name: call.name, args: call.args, turn_id });
    await log.put({ call_id: call.id, name: call.name, content: call.text, is_error: false });
    await sink.emit({
      type: 'tool_completed',
      call_id: call.id,
      name: call.name,
      execution_time: 12,
      is_error: false,
      result: textEcho(call.text, call.name),
    });
  }
  await sink.emit({ type: 'assistant_message', turn_id, text: 'Read the feed.', tool_calls: [] });
  await sink.emit({
    type: 'turn_completed',
    turn_id,
    usage: { input_tokens: 10, output_tokens: 5 },
    stop_reason: 'end_turn',
  });
  await log.close();
}

async function openSession(panel: Panel, title: string): Promise<void> {
  // The list is read again when it opens, so the session written a moment ago is in it.
  await panel.page.getByTestId('sessions-button').click();
  await panel.page.getByTestId('session-item').filter({ hasText: title }).getByTestId('session-open').click();
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Read the feed.');
  if (await panel.page.getByTestId('session-list').isVisible()) await panel.page.getByTestId('sessions-button').click();
}

const card = (panel: Panel, id: string) => panel.page.locator(`[data-testid="tool-card"][data-call-id="${id}"]`);

test('a result that is one XML document shows as a tree that collapses and expands', async ({ panel }) => {
  await writeReplayedSession(panel, 'Check the release feed', [{ id: 'call_feed', text: FEED }]);
  await openSession(panel, 'Check the release feed');
  const feed = card(panel, 'call_feed');
  await expect(feed).toHaveAttribute('data-view', 'generic');
  const tree = feed.getByTestId('xml-tree');
  await expect(tree).toBeVisible();
  await expect(feed.getByTestId('generic-content')).toHaveCount(0);

  // Collapsed: every top-level child keeps its first lines, and says how much it hides.
  await expect(tree.locator('.xml-line').first()).toHaveText('feed title="Releases"');
  await expect(tree).toContainText('entry version="2.1.0" date="2026-11-02"');
  await expect(tree).toContainText('entry version="2.0.0" date="2026-10-12"');
  await expect(tree).toContainText('summary: Faster startup');
  await expect(tree).toContainText('… 3 more lines');
  await expect(tree).toContainText('… 2 more lines');
  await expect(tree).not.toContainText('Esc stops a running command');
  await expect(tree).not.toContainText('<');
  const toggle = feed.getByTestId('xml-toggle');
  await expect(toggle).toHaveText('Expand (5 more lines)');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await panel.shot('xml-collapsed');

  await toggle.click();
  await expect(toggle).toHaveText('Collapse');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(tree.locator('.xml-line')).toHaveCount(12);
  await expect(tree).toContainText('change kind="fix": Esc stops a running command');
  await expect(tree).toContainText('change kind="fix": Spilled output names its file');
  await expect(tree).not.toContainText('more line');
  await panel.shot('xml-expanded');

  await toggle.click();
  await expect(tree).not.toContainText('Esc stops a running command');
  await expect(toggle).toHaveText('Expand (5 more lines)');

  await feed.getByTestId('xml-raw').click();
  await expect(feed.getByTestId('generic-content')).toHaveText(FEED);
  await feed.getByTestId('full-content-button').click();
  await expect(feed.getByTestId('full-content').locator('pre')).toHaveText(FEED);
});

test('a malformed document and one with a DOCTYPE show their raw text', async ({ panel }) => {
  await writeReplayedSession(panel, 'Check the broken feeds', [
    { id: 'call_malformed', text: MALFORMED },
    { id: 'call_doctype', text: DOCTYPE },
  ]);
  await openSession(panel, 'Check the broken feeds');
  const malformed = card(panel, 'call_malformed');
  await expect(malformed.getByTestId('generic-content')).toHaveText(MALFORMED);
  await expect(malformed.getByTestId('xml-tree')).toHaveCount(0);
  const doctype = card(panel, 'call_doctype');
  await expect(doctype.getByTestId('generic-content')).toHaveText(DOCTYPE);
  await expect(doctype.getByTestId('xml-tree')).toHaveCount(0);
  await panel.shot('xml-raw-fallbacks');
});

test('a known tool without a view of its own keeps its XML literal on the generic card', async ({ panel }) => {
  await writeReplayedSession(panel, 'Search and fetch the feed', [
    { id: 'call_search', text: FEED, tool: 'search_files' },
    { id: 'call_fetch', text: FEED },
  ]);
  await openSession(panel, 'Search and fetch the feed');
  const search = card(panel, 'call_search');
  await expect(search).toHaveAttribute('data-view', 'generic');
  await expect(search.getByTestId('generic-content')).toHaveText(FEED);
  await expect(search.getByTestId('xml-tree')).toHaveCount(0);
  // The same text from the tool this build does not know is a tree.
  await expect(card(panel, 'call_fetch').getByTestId('xml-tree')).toBeVisible();
  await panel.shot('xml-known-tool-literal');
});

test('a command that prints an XML document keeps it literal in its own view', async ({ panel }) => {
  await panel.write('feed.xml', `${FEED}\n`);
  panel.script({
    steps: [
      { tool_calls: [{ id: 'call_cat', name: 'exec', args: { command: 'cat feed.xml' } }] },
      { text: ['Printed.'] },
    ],
  });
  await panel.send('Print the feed');
  const cat = card(panel, 'call_cat');
  await cat.getByTestId('approve-once').click();
  await expect(panel.page.getByTestId('message-assistant').last()).toContainText('Printed.');
  await expect(cat.getByTestId('exec-output')).toHaveText(`${FEED}\n`);
  await expect(cat.getByTestId('xml-tree')).toHaveCount(0);
});
