// HIGH and MEDIUM electronegativity findings over the built main process and preload that were
// reviewed and accepted, each with its reason. Every entry is also listed in docs/security.md, under
// electronegativity. An entry matches a finding by check, file (relative to the scanned folder: main/…,
// preload/…, or N/A for global checks) and a piece of the flagged source line.

export interface Acceptance {
  check: string;
  file: string;
  sample: string;
  reason: string;
}

export const acceptedFindings: readonly Acceptance[] = [
  {
    check: 'CSP_GLOBAL_CHECK',
    file: 'N/A',
    sample: '',
    reason:
      'The CSP is a response header of every app:// response (main/electron/app-protocol.ts, policy in main/host/csp.ts), which a scan of the bundles cannot see; app-protocol.test.ts asserts it.',
  },
  {
    check: 'CONTEXT_ISOLATION_JS_CHECK',
    file: 'main/index.js',
    sample: 'new BrowserWindow(',
    reason:
      'webPreferences come from secureWebPreferences() (contextIsolation: true), a call the scanner does not follow; window.test.ts asserts the values.',
  },
  {
    check: 'SANDBOX_JS_CHECK',
    file: 'main/index.js',
    sample: 'new BrowserWindow(',
    reason:
      'sandbox: true comes from secureWebPreferences(), and app.enableSandbox() sandboxes every renderer before the app is ready.',
  },
  {
    check: 'AUXCLICK_JS_CHECK',
    file: 'main/index.js',
    sample: 'new BrowserWindow(',
    reason:
      'A middle click can only ask for a new window, and every web contents denies all new windows (setWindowOpenHandler) and prevents every navigation.',
  },
  {
    check: 'OPEN_EXTERNAL_JS_CHECK',
    file: 'main/index.js',
    sample: 'shell.openExternal(url)',
    reason:
      'Only https: URLs and http: to this machine (a port a process of the session listens on) reach openExternal, and only after the person confirms a dialog that shows the URL (main/electron/links.ts).',
  },
  {
    check: 'OPEN_EXTERNAL_JS_CHECK',
    file: 'main/index.js',
    sample: 'shell.openExternal(url.href)',
    reason:
      "An MCP server's authorization page, opened only when the person pressed Sign in for that server, and only an https: page or http: to this machine (openSignInPage, main/electron/links.ts; links.test.ts).",
  },
];
