import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE } from '../../../test/mcp-servers.ts';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { McpServers } from './mcp-servers.ts';

// A running MCP server's prompts as the composer's slash commands, made into a message's text by
// the server from their arguments, and its resources as `@` offers them: the fixture over stdio.

let root: string;
let servers: McpServers | null = null;

beforeEach(async () => {
  const made = await makeTempWorkspace('aether-mcp-prompts-');
  root = made.root;
  const home = path.join(root, 'home');
  await mkdir(home);
  await writeFile(
    path.join(home, 'mcp.json'),
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE] } } }),
  );
  servers = new McpServers({ home, workspace: made.workspace });
});

afterEach(async () => {
  await servers?.close();
  servers = null;
  await rm(root, { recursive: true, force: true });
});

describe("an MCP server's prompts and resources in the composer", () => {
  it('offers nothing before the server runs, then its prompt as /mcp__server__prompt with its arguments', async () => {
    await servers!.readConfig();
    expect(await servers!.promptCommands()).toEqual({ commands: [], problems: [] });
    await servers!.start();
    expect(await servers!.promptCommands()).toEqual({
      commands: [
        {
          name: 'mcp__fixture__release-notes',
          description: 'Asks for the release notes of a version',
          body: '',
          source: 'mcp',
          argument_hint: '<version> [tone]',
          prompt: {
            server: 'fixture',
            name: 'release-notes',
            arguments: [
              { name: 'version', description: 'The version to write about', required: true },
              { name: 'tone', description: 'How they should sound', required: false },
            ],
          },
        },
      ],
      problems: [],
    });
  });

  it("makes the message from the server's prompt, and says why when the server refuses the arguments", async () => {
    await servers!.start();
    expect(await servers!.promptText('fixture', 'release-notes', { version: '2.4.0', tone: 'warm' })).toBe(
      'Write the release notes for 2.4.0 in a warm tone.',
    );
    await expect(servers!.promptText('fixture', 'release-notes', {})).rejects.toThrow(
      'The MCP server "fixture" did not give its prompt release-notes:',
    );
    await expect(servers!.promptText('elsewhere', 'release-notes', {})).rejects.toThrow(
      'The MCP server "elsewhere" is not running',
    );
  });

  it('finds its resources by name or URI, and reads one', async () => {
    await servers!.start();
    const changelog = {
      server: 'fixture',
      uri: 'fixture://notes/changelog.md',
      name: 'Changelog',
      description: 'What changed in each release',
      mime_type: 'text/markdown',
    };
    expect(await servers!.resourceMatches('change')).toEqual([changelog]);
    expect(await servers!.resourceMatches('notes/')).toEqual([changelog]);
    expect(await servers!.resourceMatches('nothing-like-it')).toEqual([]);
    const read = await servers!.readResource('fixture', changelog.uri);
    expect(Buffer.from(read.data, 'base64').toString()).toBe('# Changelog\n\n- 2.4.0: forms in the panel\n');
  });
});
