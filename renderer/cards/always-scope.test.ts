import { describe, expect, it } from 'vitest';
import { describeAlwaysRule, describeAlwaysRules } from './always-scope.ts';

describe('describeAlwaysRule', () => {
  it('says in words what each kind of grant covers', () => {
    expect(describeAlwaysRule('write')).toBe('all file writes in this workspace');
    expect(describeAlwaysRule('write(src/a.ts)')).toBe('writes to src/a.ts in this workspace');
    expect(describeAlwaysRule('read(docs/**)')).toBe('reads of docs/** in this workspace');
    expect(describeAlwaysRule('exec(npm test)')).toBe('the command npm test in this workspace');
    expect(describeAlwaysRule('ssh(box: uptime)')).toBe('the remote command box: uptime');
    expect(describeAlwaysRule('code')).toBe('every Code Mode program');
    expect(describeAlwaysRule('net(docs.python.org)')).toBe('web pages from docs.python.org');
    expect(describeAlwaysRule('net')).toBe('web pages from every host');
  });

  it('leaves a rule it does not know as it is', () => {
    expect(describeAlwaysRule('mcp__server__tool')).toBe('mcp__server__tool');
    expect(describeAlwaysRule('weird rule (')).toBe('weird rule (');
  });

  it('joins several rules as one phrase', () => {
    expect(describeAlwaysRules(['exec(make)', 'exec(make test)'])).toBe(
      'the command make in this workspace and the command make test in this workspace',
    );
  });
});
