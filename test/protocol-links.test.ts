import { describe, expect, it } from 'vitest';
import { outsideLinkRefusal, portLink } from '../protocol/links.ts';

describe('outsideLinkRefusal', () => {
  it('lets https: anywhere and http: to this machine leave the panel', () => {
    expect(outsideLinkRefusal('https://docs.python.org/3/')).toBeNull();
    expect(outsideLinkRefusal(portLink(5173))).toBeNull();
    expect(outsideLinkRefusal('http://localhost:3000/api?x=1')).toBeNull();
    expect(outsideLinkRefusal('http://[::1]:8080/')).toBeNull();
  });

  it('refuses plain http: elsewhere, other schemes, and what is not a link', () => {
    for (const url of [
      'http://example.com/',
      'http://127.0.0.1.evil.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
    ])
      expect(outsideLinkRefusal(url)).toMatch(
        /^Only https: links \(and http: to this machine\) open outside the panel/,
      );
    expect(outsideLinkRefusal('not a link')).toBe('Not a link: not a link');
  });
});
