import { expect, it } from 'vitest';
import { allCommands, builtinCommands, helpLines, skillLines } from './slash-commands.ts';

// `/skills`: the skills the composer offers, those the model loaded marked, and what to do when
// there are none.

const skill = (name: string, description: string) => ({ name, description, body: '', source: 'skill' as const });

it('lists each skill as its command, marking those loaded in this session', () => {
  const choices = allCommands(builtinCommands(), [
    skill('release', 'Cut a release'),
    skill('triage', 'Sort new issues'),
  ]);
  expect(skillLines(choices, new Set(['triage']))).toEqual([
    '/release — Cut a release',
    '/triage — Sort new issues (loaded in this session)',
  ]);
  expect(helpLines(choices)).toContain('/skills — List the skills, and those loaded in this session');
});

it('says where skills go when there are none', () => {
  expect(skillLines(builtinCommands(), new Set())).toEqual([expect.stringContaining('.claude/skills/')]);
});
