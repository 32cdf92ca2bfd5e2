// The Content-Security-Policy of the panel, sent as a header by the web host and by Electron's
// app:// protocol. Scripts come only from the panel's own files: no inline script, no eval.
// Inline style attributes are allowed because syntax highlighting colours tokens with them.

export interface CspOptions {
  /** Extra `connect-src` sources: the web host's own socket URL. */
  connect?: string[];
}

export function contentSecurityPolicy(options: CspOptions = {}): string {
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'none'"]],
    ['script-src', ["'self'"]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:']],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...(options.connect ?? [])]],
    ['worker-src', ["'self'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
    ['object-src', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/** Headers every panel response carries besides the CSP. */
export const PANEL_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};
