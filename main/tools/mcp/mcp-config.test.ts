import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVERYTHING } from '../../../test/mcp-servers.ts';
import { makeTempWorkspace } from '../../../test/temp-workspace.ts';
import { loadMcpConfig, workspaceMcpFile } from './mcp-config.ts';
import { McpServers } from './mcp-servers.ts';

let root: string;
let workspace: string;
let home: string;
const opened: McpServers[] = [];

beforeEach(async () => {
  ({ root, workspace } = await makeTempWorkspace('aether-mcp-config-'));
  home = path.join(root, 'home');
  await mkdir(home);
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((servers) => servers.close()));
  await rm(root, { recursive: true, force: true });
});

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}

function servers(approve?: ConstructorParameters<typeof McpServers>[0]['approve']): McpServers {
  const made = new McpServers({ home, workspace, ...(approve ? { approve } : {}) });
  opened.push(made);
  return made;
}

describe('MCP configuration', () => {
  it('reads mcpServers from the home and the workspace; the person’s own definition wins a shared name', async () => {
    await writeJson(path.join(home, 'mcp.json'), {
      mcpServers: { tools: { command: 'node', args: ['a.js'] }, remote: { url: 'https://example.test/mcp' } },
    });
    await writeJson(workspaceMcpFile(workspace), {
      mcpServers: { tools: { command: 'evil' }, local: { command: 'node', args: ['b.js'], cwd: 'sub' } },
    });
    const config = await loadMcpConfig(home, workspace);
    expect(config.servers.map((server) => `${server.name}:${server.origin}`)).toEqual([
      'tools:user',
      'remote:user',
      'local:workspace',
    ]);
    expect(config.servers[2]?.transport).toMatchObject({ cwd: path.join(workspace, 'sub') });
    expect(config.problems[0]).toContain('the server "tools" is also defined in');
  });

  it('reports an entry that is neither a command nor a URL, and a file that is not JSON, without failing', async () => {
    await writeJson(path.join(home, 'mcp.json'), { mcpServers: { odd: { cmd: 'x' }, fine: { command: 'node' } } });
    await mkdir(path.dirname(workspaceMcpFile(workspace)), { recursive: true });
    await writeFile(workspaceMcpFile(workspace), '{ not json');
    const config = await loadMcpConfig(home, workspace);
    expect(config.servers.map((server) => server.name)).toEqual(['fine']);
    expect(config.problems.join('\n')).toMatch(/the server "odd" needs \{command/);
    expect(config.problems.join('\n')).toMatch(/mcp\.json is not an MCP configuration/);
  });

  it('never starts a workspace-defined server before the person approves it', async () => {
    const marker = path.join(root, 'ran');
    await writeJson(workspaceMcpFile(workspace), {
      mcpServers: {
        sneaky: {
          command: process.execPath,
          args: ['-e', `require("fs").writeFileSync(${JSON.stringify(marker)}, "")`],
        },
      },
    });
    const mcp = servers();
    await mcp.start();
    expect(mcp.states()[0]).toMatchObject({ name: 'sneaky', status: 'unapproved', tools: [] });
    expect(mcp.states()[0]?.failure).toContain('aether mcp approve sneaky');
    await expect(stat(marker)).rejects.toThrow(/ENOENT/);

    const refused = servers(async () => false);
    await refused.start();
    expect(refused.states()[0]?.status).toBe('unapproved');
    await expect(stat(marker)).rejects.toThrow(/ENOENT/);
  });

  it('asks once naming the command, remembers the approval, and asks again when the command changes', async () => {
    const config = { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING] } } };
    await writeJson(workspaceMcpFile(workspace), config);
    const asked: string[] = [];
    const first = servers(async (_server, request) => {
      asked.push(request.detail);
      return true;
    });
    await first.start();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(`${process.execPath} ${EVERYTHING}`);
    expect(first.states()[0]?.status).toBe('ready');

    const second = servers(async () => {
      throw new Error('should not ask again');
    });
    await second.start();
    expect(second.states()[0]?.status).toBe('ready');

    await writeJson(workspaceMcpFile(workspace), {
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
    });
    const changed = servers();
    await changed.start();
    expect(changed.states()[0]?.status).toBe('unapproved');
  });
});
