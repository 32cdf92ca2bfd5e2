// Lint: TypeScript rules plus the import boundaries (ARCHITECTURE.md, Layers).
import tseslint from 'typescript-eslint';
import { layersRule } from './build/lint-layers.ts';

// The layers inside main/, lowest first: each folder and every layer it may import from. Nothing
// imports upwards; cli/ and electron/ are the two entry points and never import each other.
const mainLayers = {
  model: [],
  status: [],
  tools: ['status'],
  session: ['model', 'status', 'tools'],
  agent: ['model', 'status', 'tools', 'session'],
  host: ['model', 'status', 'agent'],
  cli: ['model', 'status', 'agent', 'host', 'acp'],
  acp: ['model', 'status', 'agent', 'host'],
  electron: ['model', 'status', 'agent', 'host'],
};

// The hosts hold transport and presentation: they open sessions and reach the tools through
// main/agent/ (the front door, open-agent-session.ts), and take only types from these layers.
const hostTypesOnly = ['tools', 'session'];
const mainTypesFrom = { host: hostTypesOnly, cli: hostTypesOnly, acp: hostTypesOnly, electron: hostTypesOnly };

const nodeBuiltins = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'child_process',
  'crypto',
  'net',
  'http',
  'https',
  'stream',
  'worker_threads',
  'url',
  'util',
  'events',
  'zlib',
];

const forbid = (groups, message) => ({
  'no-restricted-imports': ['error', { patterns: groups.map((group) => ({ group, message })) }],
});

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', '.tsbuild/', 'test-results/', 'playwright-report/', 'e2e/output/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\./[\\w-]+\\.ts$|zod$)',
              message:
                'protocol/ is shared pure code: it imports only its own files and zod (no Node, DOM or Electron).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['main/**/*.ts'],
    // Tests may reach across layers, e.g. to check that two layers agree on a list.
    ignores: ['main/**/*.test.ts'],
    plugins: { aether: { rules: { layers: layersRule } } },
    rules: { 'aether/layers': ['error', { root: 'main', layers: mainLayers, typesFrom: mainTypesFrom }] },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: forbid(
      [
        ['electron', 'electron/*'],
        ['**/renderer/**', '**/preload/**'],
      ],
      'Only main/electron/ imports electron; main/ never imports the renderer or the preload.',
    ),
  },
  {
    files: ['main/electron/**/*.ts'],
    rules: forbid([['**/renderer/**', '**/preload/**']], 'main/electron/ never imports the renderer or the preload.'),
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: forbid(
      [
        ['electron', 'electron/*', ...nodeBuiltins],
        ['**/main/**', '**/preload/**'],
      ],
      'renderer/ talks to the panel only through renderer/bridge; no Node, no electron, no main/ or preload/.',
    ),
  },
  {
    files: ['preload/**/*.ts'],
    rules: forbid(
      [[...nodeBuiltins], ['**/main/**', '**/renderer/**']],
      'preload/ imports only electron and protocol/.',
    ),
  },
);
