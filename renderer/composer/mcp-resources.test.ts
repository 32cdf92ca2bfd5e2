import { describe, expect, it } from 'vitest';
import type { Result } from '../../protocol/api.ts';
import type { McpResourceMatch } from '../../protocol/composer.ts';
import { resourcesIn, withResources } from './mcp-resources.ts';

// MCP resources picked with `@`: only those whose token the message still holds are attached,
// each as a block naming its server and URI; one that is not text, too large, or unreadable stops
// the message with a sentence naming it.

const changelog: McpResourceMatch = {
  server: 'fixture',
  uri: 'fixture://notes/changelog.md',
  name: 'Changelog',
  description: '',
  mime_type: 'text/markdown',
};
const logo: McpResourceMatch = { server: 'fixture', uri: 'fixture://logo.png', name: 'Logo', description: '' };
const picked = new Map([
  ['fixture:Changelog', changelog],
  ['fixture:Logo', logo],
]);

function reading(answers: Record<string, Result<{ data: string; mime_type?: string }>>) {
  return {
    mcpResource: async (_server: string, uri: string) => answers[uri] ?? { ok: false as const, error: 'unknown' },
  };
}

const text = (value: string) => Buffer.from(value).toString('base64');

describe('MCP resources mentioned with @', () => {
  it('are those whose token is still in the message, in order', () => {
    expect(resourcesIn('see @fixture:Logo and @fixture:Changelog.', picked)).toEqual([logo, changelog]);
    expect(resourcesIn('see @fixture:Changelogs', picked)).toEqual([]);
  });

  it('attach their text after the message, naming server and URI', async () => {
    const read = reading({
      [changelog.uri]: { ok: true, value: { data: text('# Changelog\n'), mime_type: 'text/markdown' } },
    });
    expect(await withResources('Summarise @fixture:Changelog', [changelog], read)).toEqual({
      ok: true,
      value:
        'Summarise @fixture:Changelog\n\n<mcp_resource server="fixture" uri="fixture://notes/changelog.md" type="text/markdown">\n# Changelog\n</mcp_resource>',
    });
  });

  it('stop the message at one that is not text, too large, or unreadable', async () => {
    const read = reading({
      [logo.uri]: { ok: true, value: { data: text('png'), mime_type: 'image/png' } },
      [changelog.uri]: { ok: true, value: { data: text('x'.repeat(300 * 1024)), mime_type: 'text/plain' } },
    });
    expect(await withResources('m', [logo], read)).toEqual({
      ok: false,
      error: '@fixture:Logo (fixture://logo.png) is image/png; only a text resource can be attached to a message.',
    });
    expect(await withResources('m', [changelog], read)).toEqual({
      ok: false,
      error:
        '@fixture:Changelog (fixture://notes/changelog.md) is 300 KiB; a resource attached to a message may be at most 256 KiB.',
    });
    expect(await withResources('m', [changelog], reading({}))).toEqual({
      ok: false,
      error: '@fixture:Changelog (fixture://notes/changelog.md) could not be read: unknown',
    });
  });
});
