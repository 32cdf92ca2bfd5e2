import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionRuleLists } from '../../../protocol/api.ts';
import { webFetchEchoSchema } from '../../../protocol/echo.ts';
import type { ToolCompletedEvent } from '../../../protocol/events.ts';
import { webFetchResultSchema } from '../../../protocol/tools.ts';
import { startHttpsServer, TEST_CA, type Handler, type TestHttpsServer } from '../../../test/https-server.ts';
import { useTempWorkspace } from '../../../test/temp-workspace.ts';
import { StatusRecorder } from '../../status/sink.ts';
import type { ToolOutcome } from '../call-context.ts';
import {
  ALLOW_ALL,
  PermissionGate,
  RefuseApprover,
  type ApprovalQuestion,
  type Approver,
  type GateRules,
} from '../permission-gate.ts';
import { ToolRegistry } from '../registry.ts';
import { webFetchTool, type WebFetchOptions } from './web-fetch.ts';

// web_fetch against a real HTTPS server on loopback, through the whole pipeline (validation, the
// gate with net rules, execute, render, spill, echo). The server's certificate is the authority the
// tool trusts; loopback is a private address, so each test that reaches it allows the host by name.

const ARTICLE = readFileSync(path.join(import.meta.dirname, '../../../test/fixtures/web/article.html'));
const LOOPBACK: PermissionRuleLists = { allow: ['net(127.0.0.1)'], ask: [], deny: [] };

const workspace = useTempWorkspace('aether-web-');
let server: TestHttpsServer;

beforeEach(async () => {
  server = await startHttpsServer();
});
afterEach(async () => {
  await server.close();
});

interface Rig {
  recorder: StatusRecorder;
  registry: ToolRegistry;
  questions: ApprovalQuestion[];
  call(url: string): Promise<ToolOutcome & { completed: ToolCompletedEvent }>;
}

function rig(
  options: { rules?: PermissionRuleLists; mode?: GateRules; approver?: Approver; tool?: WebFetchOptions } = {},
): Rig {
  const recorder = new StatusRecorder();
  const questions: ApprovalQuestion[] = [];
  const refuse = new RefuseApprover(() => 'Nobody answers questions in this test.');
  const approver: Approver = {
    ask: (question) => {
      questions.push(question);
      return (options.approver ?? refuse).ask(question);
    },
  };
  const gate = new PermissionGate(options.mode ?? ALLOW_ALL, approver, { rules: options.rules ?? LOOPBACK });
  const { workspace: root, sessionDir } = workspace;
  const registry = new ToolRegistry({ workspace: root, sessionDir, sink: recorder, gate });
  registry.register(webFetchTool({ ca: TEST_CA, ...options.tool }));
  let calls = 0;
  return {
    recorder,
    registry,
    questions,
    async call(url) {
      calls += 1;
      const callId = `fetch-${calls}`;
      const outcome = await registry.call({ callId, name: 'web_fetch', args: { url } });
      const completed = recorder.ofType('tool_completed').find((event) => event.call_id === callId);
      if (!completed) throw new Error(`no tool_completed for ${callId}`);
      return { ...outcome, completed };
    },
  };
}

const html =
  (body: Buffer | string, headers: Record<string, string> = {}): Handler =>
  (_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);

describe('web_fetch reads a page', () => {
  it("gives the model an article's main text as Markdown, and the card its title, host and size", async () => {
    server.route('/notes/json', html(ARTICLE));
    const outcome = await rig().call(`${server.origin}/notes/json`);

    expect(outcome.isError).toBe(false);
    const result = webFetchResultSchema.parse(outcome.result);
    expect(result).toMatchObject({
      format: 'article',
      title: 'Reading JSON in Python — Field Notes',
      site_name: 'Field Notes',
      status: 200,
      content_type: 'text/html',
      bytes: ARTICLE.length,
      cut: false,
      redirects: 0,
    });
    const text = outcome.content;
    expect(text).toMatch(/^# Reading JSON in Python — Field Notes\n/);
    expect(text).toContain(`Source: ${server.origin}/notes/json`);
    expect(text).toContain('## The function that reads');
    expect(text).toContain('```python\nimport json\n');
    expect(text).toContain(`[notes on numbers](${server.origin}/docs/json#numbers)`);
    expect(text).toContain('| object | dict |');
    expect(text).toContain('[image: A diagram of the parser]');
    for (const clutter of [
      'NAVIGATION-MENU-TEXT',
      'SIDEBAR-LINK-ONE',
      'FOOTER-COPYRIGHT-TEXT',
      'SCRIPT-TEXT',
      'base64',
    ])
      expect(text).not.toContain(clutter);

    const echo = webFetchEchoSchema.parse(outcome.completed.result);
    expect(echo).toMatchObject({
      kind: 'web-fetch',
      host: '127.0.0.1',
      title: 'Reading JSON in Python — Field Notes',
      bytes: ARTICLE.length,
      excerpt: 'How json.loads turns text into Python objects, and what it does with numbers.',
    });
    expect(echo.text_chars).toBe(result.text.length);
  });

  it('converts a page with no main text whole, and reads a gzip-compressed body', async () => {
    const page = '<html><head><title>Index</title></head><body><ul><li><a href="/a">First</a></li></ul></body></html>';
    server.route('/index', html(gzipSync(page), { 'content-encoding': 'gzip' }));
    const outcome = await rig().call(`${server.origin}/index`);
    const result = webFetchResultSchema.parse(outcome.result);
    expect(result.format).toBe('page');
    expect(result.title).toBe('Index');
    expect(result.text).toBe(`-   [First](${server.origin}/a)`);
  });

  it.each([
    ['text/plain; charset=utf-8', 'plain words\nsecond line'],
    ['application/json', '{"answer": 42, "list": [1, 2]}'],
    ['text/markdown', '# Title\n\n- item'],
  ])('passes %s through as text', async (type, body) => {
    server.route('/doc', (_request, response) => response.writeHead(200, { 'content-type': type }).end(body));
    const outcome = await rig().call(`${server.origin}/doc`);
    const result = webFetchResultSchema.parse(outcome.result);
    expect(result).toMatchObject({ format: 'text', text: body });
    expect(outcome.content.endsWith(`\n\n${body}`)).toBe(true);
  });

  it('decodes a text document in the charset its type names', async () => {
    server.route('/latin1', (_request, response) =>
      response.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from('café', 'latin1')),
    );
    const outcome = await rig().call(`${server.origin}/latin1`);
    expect(webFetchResultSchema.parse(outcome.result).text).toBe('café');
  });

  it('refuses a binary file with its content type', async () => {
    server.route('/logo.png', (_request, response) =>
      response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(2048, 1)),
    );
    const outcome = await rig().call(`${server.origin}/logo.png`);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('is image/png, which web_fetch does not read');
  });

  it('reads at most its byte limit of a large page and tells the model the text ends early', async () => {
    const body = `<html><body><pre>${'line of text\n'.repeat(20_000)}</pre></body></html>`;
    server.route('/huge', html(body));
    const outcome = await rig({ tool: { maxBytes: 16 * 1024 } }).call(`${server.origin}/huge`);
    const result = webFetchResultSchema.parse(outcome.result);
    expect(result).toMatchObject({ cut: true, bytes: 16 * 1024 });
    expect(outcome.content).toContain('[The page is larger than 16.0 KiB: only its first 16.0 KiB were read');
  });

  it('reports an error status with the start of a text body', async () => {
    server.route('/missing', (_request, response) =>
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message": "no such page"}'),
    );
    const outcome = await rig().call(`${server.origin}/missing`);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toBe(`${server.origin}/missing answered 404 Not Found:\n{"message": "no such page"}`);
  });
});

describe('web_fetch follows redirects', () => {
  const redirect =
    (location: string, status = 302): Handler =>
    (_request, response) =>
      response.writeHead(status, { location }).end();

  it('follows up to five, and says where the page came from', async () => {
    for (let hop = 0; hop < 5; hop += 1) server.route(`/r${hop}`, redirect(`/r${hop + 1}`, hop % 2 ? 301 : 307));
    server.route('/r5', (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('end'));
    const outcome = await rig().call(`${server.origin}/r0`);
    expect(webFetchResultSchema.parse(outcome.result)).toMatchObject({
      final_url: `${server.origin}/r5`,
      redirects: 5,
      text: 'end',
    });
    expect(outcome.content).toContain(`Source: ${server.origin}/r5 (redirected from ${server.origin}/r0)`);
  });

  it('stops at the sixth', async () => {
    for (let hop = 0; hop < 6; hop += 1) server.route(`/r${hop}`, redirect(`/r${hop + 1}`));
    const outcome = await rig().call(`${server.origin}/r0`);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('Stopped after 5 redirects');
    expect(server.requests).toEqual(['/r0', '/r1', '/r2', '/r3', '/r4', '/r5']);
  });

  it('refuses a redirect to plain http', async () => {
    server.route('/down', redirect(`http://127.0.0.1:${server.port}/plain`));
    const outcome = await rig().call(`${server.origin}/down`);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('which is not https://; the redirect was not followed');
  });

  it('judges a redirect to another host by the net rules again', async () => {
    server.route('/moved', redirect(`${server.localhostOrigin}/here`));
    server.route('/here', (_request, response) =>
      response.writeHead(200, { 'content-type': 'text/plain' }).end('here'),
    );

    const denied = await rig({
      rules: { allow: ['net(127.0.0.1)', 'net(localhost)'], ask: [], deny: ['net(localhost)'] },
    }).call(`${server.origin}/moved`);
    expect(denied.isError).toBe(true);
    expect(denied.content).toContain('matches the deny rule net(localhost)');
    expect(server.requests).toEqual(['/moved']);

    const allowed = await rig({ rules: { allow: ['net(127.0.0.1)', 'net(localhost)'], ask: [], deny: [] } }).call(
      `${server.origin}/moved`,
    );
    expect(webFetchResultSchema.parse(allowed.result)).toMatchObject({ final_url: `${server.localhostOrigin}/here` });
  });

  it('asks about a redirect to another host when the mode asks, naming both hosts', async () => {
    server.route('/moved', redirect(`${server.localhostOrigin}/here`));
    const asking = rig({
      mode: { ...ALLOW_ALL, net: 'ask' },
      rules: { allow: ['net(127.0.0.1)', 'net(localhost)'], ask: ['net(localhost)'], deny: [] },
    });
    const outcome = await asking.call(`${server.origin}/moved`);
    expect(outcome.isError).toBe(true);
    expect(asking.questions.map((question) => question.request.title)).toEqual([
      'Follow a redirect from 127.0.0.1 to localhost',
    ]);
  });
});

describe('web_fetch and private addresses', () => {
  it('refuses a loopback address that no allow rule names, even when the mode allows every fetch', async () => {
    server.route('/', html('<p>hello</p>'));
    const open = rig({ rules: { allow: ['net'], ask: [], deny: [] } });
    const literal = await open.call(`${server.origin}/`);
    expect(literal.isError).toBe(true);
    expect(literal.content).toContain('127.0.0.1 is a private, loopback or link-local address');
    expect(literal.content).toContain('net(127.0.0.1)');
    // A name that resolves to loopback is caught at the address it resolves to.
    const named = await open.call(`${server.localhostOrigin}/`);
    expect(named.isError).toBe(true);
    expect(named.content).toMatch(/localhost \(at (127\.0\.0\.1|::1)\) is a private/);
    expect(server.requests).toEqual([]);
  });

  it('refuses the cloud metadata address before connecting', async () => {
    const outcome = await rig({ rules: { allow: ['net(*.example)'], ask: [], deny: [] } }).call(
      'https://169.254.169.254/latest/meta-data/',
    );
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('169.254.169.254 is a private, loopback or link-local address');
  });
});

describe('web_fetch refuses', () => {
  it('plain http before anything is asked, saying to use https', async () => {
    const asking = rig({ mode: { ...ALLOW_ALL, net: 'ask' } });
    const outcome = await asking.call('http://docs.python.org/3/');
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('only https:// URLs are fetched');
    expect(outcome.content).toContain('try https://docs.python.org/3/');
    expect(asking.questions).toEqual([]);
  });

  it('a server whose certificate it does not trust', async () => {
    server.route('/', html('<p>hello</p>'));
    const recorder = new StatusRecorder();
    const gate = new PermissionGate(ALLOW_ALL, new RefuseApprover(() => 'no'), { rules: LOOPBACK });
    const registry = new ToolRegistry({ ...workspaceOptions(), sink: recorder, gate });
    registry.register(webFetchTool());
    const outcome = await registry.call({ callId: 'c1', name: 'web_fetch', args: { url: `${server.origin}/` } });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/The certificate of 127\.0\.0\.1:\d+ is not trusted/);
  });

  it('a server that does not send the page in time', async () => {
    server.route('/slow', (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }));
    const outcome = await rig({ tool: { timeoutMs: 300 } }).call(`${server.origin}/slow`);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('127.0.0.1');
    expect(outcome.content).toContain('did not send the page within 0.3 s');
  });
});

describe('web_fetch and Stop', () => {
  it('stops a fetch whose page is still arriving', async () => {
    let arrived: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (arrived = resolve));
    server.route('/stream', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('first part\n');
      arrived();
    });
    const fetching = rig();
    const call = fetching.call(`${server.origin}/stream`);
    await started;
    expect(fetching.registry.cancel('fetch-1')).toBe(true);
    const outcome = await call;
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/^Cancelled: web_fetch was stopped/);
  });
});

function workspaceOptions() {
  return { workspace: workspace.workspace, sessionDir: workspace.sessionDir };
}
