import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { sessionsRoot } from './paths.ts';

const home = path.join(os.homedir(), '.aethercodex', 'sessions');

it('takes the flag over the environment, and the environment over the fallback', () => {
  expect(sessionsRoot({ flag: '/f', fallback: '/d', env: { AETHERCODEX_SESSIONS: '/e' } })).toBe('/f');
  expect(sessionsRoot({ fallback: '/d', env: { AETHERCODEX_SESSIONS: '/e' } })).toBe('/e');
  expect(sessionsRoot({ fallback: '/d', env: {} })).toBe('/d');
  expect(sessionsRoot({ env: {} })).toBe(home);
});

it('treats an empty AETHERCODEX_SESSIONS as unset instead of writing sessions into the current folder', () => {
  expect(sessionsRoot({ env: { AETHERCODEX_SESSIONS: '' } })).toBe(home);
  expect(sessionsRoot({ fallback: '/d', env: { AETHERCODEX_SESSIONS: '  ' } })).toBe('/d');
});
